#!/bin/sh
# Writes docs/weigh.1, the man page, from the command table and the command line's options
# (`weigh help --man`). A test (CommandLineTests) fails when the committed file is stale.
set -eu
cd "$(dirname "$0")/.."
swift build --product weigh >/dev/null
"$(swift build --show-bin-path)/weigh" help --man > docs/weigh.1
echo "wrote docs/weigh.1"
