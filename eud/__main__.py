import sys

from eud.cli import main

sys.exit(main())
