"""Runnable examples of the catalogd client:

    python3 -m catalogd.examples.tour   # every service the daemon serves, one section each
    python3 -m catalogd.examples.feed   # scroll the photo or product feed with the keyboard
    python3 -m catalogd.examples.map cafe  # an HTML page of the cafés around Seoul City Hall

All find the daemon with `--bin`, else `$CATALOGD_BIN`, else `catalogd` on
PATH, else the debug build of the repository they are part of, or of the
current directory (once installed with pip).
"""
