#pragma once
// A QOpenGLWidget that drives a vtkGenericOpenGLRenderWindow: VTK renders into the
// widget's own framebuffer inside paintGL(), with the widget's QOpenGLContext.
//
// Why not QVTKOpenGLNativeWidget: Debian 12 builds VTK's Qt module for Qt 5, which cannot
// load into a Qt 6 process (DESIGN.md "Views"). The wiring follows the idea of VTK 9.1's
// QVTKRenderWindowAdapter: the window is told it runs in an external context
// (InitializeFromCurrentContext in initializeGL), answers VTK's make-current / is-current
// requests with the widget's context, renders only while paintGL runs
// (SetReadyForRendering), and blits its result into the framebuffer Qt has bound
// (FrameBlitMode BlitToCurrent). VTK headers stay in the .cpp (pimpl).

#include <QOpenGLWidget>
#include <QSurfaceFormat>

class QPainter;

#include <memory>

class vtkGenericOpenGLRenderWindow;
class vtkRenderer;

namespace fleet::views {

/// Hosts one VTK render window with one renderer. Does not translate Qt events into VTK
/// interactor events: the owner handles input itself (the map picks by arithmetic).
/// Thread: GUI thread. Needs a real OpenGL surface (X server; `xvfb-run -a` in tests).
class VtkOpenGLWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkOpenGLWidget(QWidget* parent = nullptr);
    ~VtkOpenGLWidget() override;

    /// The surface format VTK 9.1 needs: OpenGL 3.2 core, 24-bit depth, 8-bit stencil, no
    /// multisampling. Set it as QSurfaceFormat::setDefaultFormat() before QApplication;
    /// the widget also sets it on itself.
    [[nodiscard]] static QSurfaceFormat vtkSurfaceFormat();

    /// The VTK render window and its one renderer, owned by this widget (never null; valid
    /// until it is destroyed). Add actors to renderer(); render through requestRender().
    [[nodiscard]] vtkGenericOpenGLRenderWindow* renderWindow() const noexcept;
    [[nodiscard]] vtkRenderer* renderer() const noexcept;

    /// Asks for a VTK render. Requests are merged: however many arrive in one event-loop
    /// turn, one paintGL (and one VTK Render) follows.
    void requestRender();

    /// A position in widget (logical) pixels as VTK display coordinates: scaled by
    /// devicePixelRatioF(), y flipped (VTK's origin is bottom-left).
    [[nodiscard]] QPointF toVtkDisplay(const QPointF& widgetPos) const;

    /// Milliseconds the last VTK Render() took (CPU side, including the blit), -1 before any.
    [[nodiscard]] double lastRenderMs() const noexcept;

signals:
    /// Emitted inside paintGL just before VTK renders: last chance to sync the scene.
    void aboutToRender();
    /// Emitted inside paintGL right after VTK rendered, with a QPainter on this widget (logical
    /// coordinates): 2D drawing over the 3D scene in the same frame, with no second widget
    /// to compose (a translucent child widget over a QOpenGLWidget makes Qt compose the
    /// whole window through a texture each frame).
    void paintOverlay(QPainter& painter);
    /// Emitted once a frame rendered by VTK has been composed to the screen
    /// (QOpenGLWidget::frameSwapped after a paintGL that rendered).
    void frameRendered();

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace fleet::views
