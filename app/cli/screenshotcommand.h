#pragma once
// `fleetscope screenshot [FILE...] [--simulate N] [--seed N] -o out.png [--size WxH]`.

namespace fleet::app {

/// Runs the screenshot subcommand: opens the cluster in a MainWindow of the given size,
/// waits for the first frame of the map, and writes the window (menus, map with its legend,
/// status bar with the totals) as a PNG. The PNG is written through QSaveFile (a temporary
/// file in the same folder, renamed when complete), so a failed run never leaves a partial
/// image. When $DISPLAY is unset or cannot be opened, starts a private Xvfb for the run and
/// stops it on every exit path (PrivateXServer). `--print-cell NODE` prints
/// "cell NODE X Y" (the centre of the node's cell in image pixels) for tests.
/// Returns 0 on success, 1 when the input cannot be imported or the image not written, 2 for a
/// bad command line. `argc`/`argv` are the whole command line. Thread: main thread,
/// before any QCoreApplication exists.
int runScreenshot(int& argc, char** argv);

} // namespace fleet::app
