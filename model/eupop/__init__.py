"""Europa Universalis: The Price of Power: the event system of chapter 16."""
