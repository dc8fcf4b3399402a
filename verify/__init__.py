"""verify layer of legalis."""
