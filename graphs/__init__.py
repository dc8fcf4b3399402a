"""graphs layer of legalis."""
