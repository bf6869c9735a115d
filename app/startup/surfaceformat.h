// SPDX-License-Identifier: Apache-2.0
#pragma once
// The default OpenGL surface format, set before QApplication exists.

namespace fleet::app {

/// Sets QSurfaceFormat::setDefaultFormat() for VTK inside a QOpenGLWidget: OpenGL 3.2 core
/// (VTK's OpenGL2 backend needs 3.2), double buffered, RGBA 8 bits, depth 24, stencil 8, no
/// multisampling (cell colours stay exact; tests compare pixels), no vsync (frames are
/// driven by requests, and startup is measured to the first frame).
/// Must run before QApplication is constructed (DESIGN.md, "Views"). Thread: main thread.
void setDefaultSurfaceFormat();

} // namespace fleet::app
