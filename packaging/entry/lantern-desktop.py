"""The packaged ``lantern-desktop`` app: the network is blocked before anything else loads."""
import sys

from core.offline import block_network

block_network()

from desktop.app import main  # noqa: E402

sys.exit(main())
