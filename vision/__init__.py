"""The camera: positions of a board without reed switches, from an overhead camera (docs/camera.md).

- :mod:`vision.grid` — the board in the picture (ArUco markers or the squares), the top-down view;
- :mod:`vision.classify` — every playable square empty / w / W / b / B with a confidence, and hands;
- :mod:`vision.pose`, :mod:`vision.kings` — the camera's pose from the board's homography; man or king by
  fitting both silhouettes, "king unknown" where the view cannot tell;
- :mod:`vision.stability` — from readings to positions: agreement, hands, what the rules allow;
- :mod:`vision.session` — pictures in, session frames out (``rig record --camera``, ``rig run --camera``);
- :mod:`vision.capture` — picamera2, V4L2 and image-sequence backends;
- :mod:`vision.config` — the camera config file; :mod:`calibration.camera` writes it;
- :mod:`vision.render`, :mod:`vision.testset` — the rendered test set (tests and bench/bench_vision.py).
"""
