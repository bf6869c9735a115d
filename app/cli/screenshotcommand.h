// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope screenshot [FILE...] [--simulate N] [--seed N] -o out.png [--size WxH]`.

namespace fleet::app {

/// Runs the screenshot subcommand: opens the cluster in a MainWindow of exactly the given size
/// (from MainWindow::kMinimumSize to 8192x8192),
/// waits for the first frame of the map, and writes the window (menus, map with its legend,
/// status bar with the totals) as a PNG. The image is encoded in memory and written through
/// importers::writeOutputFile (a temporary file in the same folder, every write checked,
/// renamed when complete), so a failed run (a full disk included) never leaves a partial image
/// and keeps the previous one. When $DISPLAY is unset or cannot be opened, starts a private Xvfb for the run and
/// stops it on every exit path (PrivateXServer). `--print-cell NODE` prints
/// "cell NODE X Y" (the centre of the node's cell in image pixels) for tests; a NODE that the
/// cluster does not have is an error (exit 1, nothing written).
/// Returns 0 on success, 1 when the input cannot be imported or the image not written (the
/// output is not a regular file, is one of the inputs, its folder is missing, the disk is
/// full), 2 for a bad command line. `argc`/`argv` are the whole command line. Thread:
/// main thread, before any QCoreApplication exists.
int runScreenshot(int& argc, char** argv);

} // namespace fleet::app
