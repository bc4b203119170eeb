"""Camera source (for boards without reed switches): not built yet.

The session format already carries what a camera would add (``frame.pieces``:
``w``/``W``/``b``/``B`` per occupied square) and the reconstruction engine uses
it (colours, kings, ``uncrowned-king-moved``); this package will hold the
capture backends (picamera2, V4L2), the board/square detection and the
simulated backend on synthetic images.
"""
