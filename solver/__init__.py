"""solver layer of legalis."""
