"""Sub-commands of the ``rig`` console script.

Each module here defines ``register(subparsers)`` that adds one or more
sub-commands, each with ``set_defaults(func=...)``; ``rig.cli`` discovers
the modules, so adding a command never edits a shared file.
"""
