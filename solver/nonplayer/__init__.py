"""The Liberty or Death Non-player rules (section 8): the shared machinery."""
