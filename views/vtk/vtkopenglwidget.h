// SPDX-License-Identifier: Apache-2.0
#pragma once
// A widget that hosts a vtkGenericOpenGLRenderWindow in a native OpenGL window of its own.
//
// Design note (speed): the frame goes straight to the default framebuffer of a QWindow
// embedded with QWidget::createWindowContainer, and the rest of the main window stays raster.
// A QOpenGLWidget instead renders into an FBO that Qt then composes with the whole window's
// backing store through OpenGL every frame: on software OpenGL (Mesa llvmpipe, 2 cores) an
// empty 1920x1080 QOpenGLWidget frame cost about 37 ms idle (212 ms under load), the same
// frame in an embedded QWindow about 5 ms (19 to 45 ms under load); see tests/bench/bench_map.
//
// Why not QVTKOpenGLNativeWidget: Debian 12 builds VTK's Qt module for Qt 5, which cannot
// load into a Qt 6 process (DESIGN.md "Views"). The wiring follows the idea of VTK 9.1's
// QVTKRenderWindowAdapter: the VTK window is told it runs in an external context
// (InitializeFromCurrentContext), answers VTK's make-current / is-current requests with this
// widget's one QOpenGLContext (made current only when it is not current already, DESIGN.md
// "Build facts"), and renders only while renderFrame runs (SetReadyForRendering), straight
// into the framebuffer bound then (the window's, or an FBO for grabFramebuffer()), not into
// a framebuffer of its own that is then copied (see DirectRenderWindow in the .cpp). VTK
// headers stay in the .cpp (pimpl).
//
// Input: the embedded window's mouse, wheel, key, enter/leave and drag-and-drop events are
// sent on to this widget (same coordinates: the window fills it), so event filters, QTest
// and QToolTip work with this widget as they did with a QOpenGLWidget.

#include <QImage>
#include <QSurfaceFormat>
#include <QWidget>

class QPainter;

#include <memory>

class vtkGenericOpenGLRenderWindow;
class vtkObject;
class vtkRenderer;

namespace fleet::views {

/// Hosts one VTK render window with one renderer. Does not translate Qt events into VTK
/// interactor events: the owner handles input itself (the map picks by arithmetic).
/// Thread: GUI thread. Needs a real OpenGL surface (X server; `xvfb-run -a` in tests).
class VtkOpenGLWidget : public QWidget {
    Q_OBJECT
public:
    explicit VtkOpenGLWidget(QWidget* parent = nullptr);
    ~VtkOpenGLWidget() override;

    /// The surface format VTK 9.1 needs: OpenGL 3.2 core, 24-bit depth, 8-bit stencil, no
    /// multisampling. Set it as QSurfaceFormat::setDefaultFormat() before QApplication;
    /// the widget also uses it for its own window and context.
    [[nodiscard]] static QSurfaceFormat vtkSurfaceFormat();

    /// The VTK render window and its one renderer, owned by this widget (never null; valid
    /// until it is destroyed). Add actors to renderer(); render through requestRender().
    [[nodiscard]] vtkGenericOpenGLRenderWindow* renderWindow() const noexcept;
    [[nodiscard]] vtkRenderer* renderer() const noexcept;

    /// Asks for a VTK render. Requests are merged: however many arrive in one event-loop
    /// turn, one frame (one VTK Render and one overlay paint) follows in a later turn (a 1 ms
    /// timer: the work that asked and the frame are two turns), then frameRendered.
    /// While the window is not exposed (hidden), the frame waits for the exposure.
    void requestRender();

    /// Renders a frame now (VTK, then the overlay) into an offscreen framebuffer of the
    /// widget's size in device pixels and returns it (devicePixelRatio set); works while
    /// hidden. A null image when no OpenGL context can be made. Emits no frameRendered.
    [[nodiscard]] QImage grabFramebuffer();

    /// A position in widget (logical) pixels as VTK display coordinates: scaled by
    /// devicePixelRatioF(), y flipped (VTK's origin is bottom-left).
    [[nodiscard]] QPointF toVtkDisplay(const QPointF& widgetPos) const;

    /// Milliseconds the last VTK Render() took (CPU side, including the blit), -1 before any.
    [[nodiscard]] double lastRenderMs() const noexcept;

signals:
    /// Emitted inside each frame just before VTK renders: last chance to sync the scene.
    void aboutToRender();
    /// Emitted inside each frame right after VTK rendered, with a QPainter (OpenGL paint
    /// engine) on the same framebuffer in logical coordinates: 2D drawing over the 3D scene
    /// in the same frame, with no second widget to compose.
    void paintOverlay(QPainter& painter);
    /// Emitted once a frame asked for by requestRender() has been swapped to the screen.
    void frameRendered();

protected:
    bool event(QEvent* event) override;

private:
    /// One frame into `framebuffer` (an OpenGL name, bound here): VTK, then the overlay.
    void renderFrame(unsigned framebuffer);
    /// VTK's make-current and is-current requests (vtkCommand observer).
    static void onVtkWindowEvent(vtkObject* caller, unsigned long eventId, void* clientData, void* callData);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace fleet::views
