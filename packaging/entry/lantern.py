"""The packaged ``lantern`` command: the network is blocked before anything else loads."""
import sys

from core.offline import block_network

block_network()

from core.cli.main import main  # noqa: E402

sys.exit(main())
