"""sensors package."""
