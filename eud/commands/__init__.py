"""The subcommands of ``eud``, one module each, every one a ``main(argv=None)``.

They parse arguments, call the library and print; :mod:`eud.cli` dispatches
to them.  Nothing in the library imports from here.
"""
