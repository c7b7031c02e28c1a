__version__ = "0.1.0"
"""The version of the Python client (it follows the daemon's minor version)."""
