#include "vtkopenglwidget.h"

#include <QElapsedTimer>
#include <QMetaMethod>
#include <QPainter>
#include <QLoggingCategory>
#include <QOpenGLContext>
#include <QTimer>

#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

Q_LOGGING_CATEGORY(lcVtkWidget, "fleet.views.vtk", QtInfoMsg)

namespace fleet::views {

struct VtkOpenGLWidget::Private {
    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
    vtkSmartPointer<vtkRenderer> renderer = vtkSmartPointer<vtkRenderer>::New();
    vtkNew<vtkCallbackCommand> contextCallback;
    bool renderPending = false;
    bool renderedSinceSwap = false;
    bool initialized = false;
    double lastRenderMs = -1;
    QMetaObject::Connection contextDestroyed;
};

namespace {

// VTK asks the host for its context through events on the generic window.
void onWindowEvent(vtkObject*, unsigned long eventId, void* clientData, void* callData)
{
    auto* widget = static_cast<VtkOpenGLWidget*>(clientData);
    QOpenGLContext* context = widget->context();
    switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
        // Only when not current already: the widget's own makeCurrent() would rebind Qt's
        // framebuffer under VTK and leave the widget blank (DESIGN.md "Build facts").
        if (context && QOpenGLContext::currentContext() != context)
            context->makeCurrent(context->surface());
        break;
    case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(callData) = context && QOpenGLContext::currentContext() == context;
        break;
    default:
        break;
    }
}

} // namespace

VtkOpenGLWidget::VtkOpenGLWidget(QWidget* parent)
    : QOpenGLWidget(parent)
    , d(std::make_unique<Private>())
{
    setFormat(vtkSurfaceFormat());
    setUpdateBehavior(QOpenGLWidget::NoPartialUpdate);

    d->window->AddRenderer(d->renderer);
    // Render only from paintGL, where Qt has made the context current and bound the
    // widget's framebuffer; at the end of Render() VTK blits into that framebuffer.
    d->window->SetReadyForRendering(false);
    d->window->SetFrameBlitModeToBlitToCurrent();
    d->window->SetMultiSamples(0);
    d->window->SetIsDirect(true);
    d->window->SetSupportsOpenGL(true);
    d->window->SetForceMaximumHardwareLineWidth(1);

    d->contextCallback->SetClientData(this);
    d->contextCallback->SetCallback(&onWindowEvent);
    for (const unsigned long e : { vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent })
        d->window->AddObserver(e, d->contextCallback);

    connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
        if (d->renderedSinceSwap) {
            d->renderedSinceSwap = false;
            emit frameRendered();
        }
    });
}

VtkOpenGLWidget::~VtkOpenGLWidget()
{
    // Free VTK's GL resources while the context still exists.
    disconnect(d->contextDestroyed);
    if (d->initialized && context()) {
        makeCurrent();
        d->window->Finalize();
        doneCurrent();
        d->initialized = false;
    }
    d->window->RemoveObserver(d->contextCallback);
}

QSurfaceFormat VtkOpenGLWidget::vtkSurfaceFormat()
{
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    format.setRedBufferSize(8);
    format.setGreenBufferSize(8);
    format.setBlueBufferSize(8);
    format.setAlphaBufferSize(8);
    format.setSamples(0);
    return format;
}

vtkGenericOpenGLRenderWindow* VtkOpenGLWidget::renderWindow() const noexcept
{
    return d->window;
}
vtkRenderer* VtkOpenGLWidget::renderer() const noexcept
{
    return d->renderer;
}
double VtkOpenGLWidget::lastRenderMs() const noexcept
{
    return d->lastRenderMs;
}

void VtkOpenGLWidget::requestRender()
{
    if (d->renderPending)
        return;
    d->renderPending = true;
    QTimer::singleShot(0, this, [this] {
        d->renderPending = false;
        update();
    });
}

QPointF VtkOpenGLWidget::toVtkDisplay(const QPointF& widgetPos) const
{
    const qreal dpr = devicePixelRatioF();
    return { widgetPos.x() * dpr, (height() - widgetPos.y()) * dpr };
}

void VtkOpenGLWidget::initializeGL()
{
    // Called again when the widget moves to another top-level window (new context):
    // release what VTK held in the old one first.
    if (d->initialized)
        d->window->Finalize();
    disconnect(d->contextDestroyed);
    d->contextDestroyed = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        if (!d->initialized)
            return;
        makeCurrent();
        d->window->Finalize();
        d->initialized = false;
        doneCurrent();
    });
    const qreal dpr = devicePixelRatioF();
    d->window->SetSize(std::max(1, qRound(width() * dpr)), std::max(1, qRound(height() * dpr)));
    if (!d->window->InitializeFromCurrentContext())
        qCWarning(lcVtkWidget) << "VTK could not initialise from the widget's OpenGL context" << context()->format();
    d->initialized = true;
}

void VtkOpenGLWidget::resizeGL(int w, int h)
{
    // w and h are logical pixels; VTK works in device pixels.
    const qreal dpr = devicePixelRatioF();
    d->window->SetSize(std::max(1, qRound(w * dpr)), std::max(1, qRound(h * dpr)));
    d->window->SetPosition(0, 0);
}

void VtkOpenGLWidget::paintGL()
{
    if (!d->initialized)
        return;
    const qreal dpr = devicePixelRatioF();
    const int w = std::max(1, qRound(width() * dpr));
    const int h = std::max(1, qRound(height() * dpr));
    if (d->window->GetSize()[0] != w || d->window->GetSize()[1] != h)
        d->window->SetSize(w, h);
    // Text sizes are given in points at 72 dpi: VTK scales them by DPI / 72, so they keep
    // their logical size on a high-density screen.
    const int dpi = qRound(72 * dpr);
    if (d->window->GetDPI() != dpi)
        d->window->SetDPI(dpi);
    emit aboutToRender();
    QElapsedTimer timer;
    timer.start();
    // QPainter (paintOverlay below) changes OpenGL state behind VTK's cache: VTK re-reads
    // it (Reset), and gives it back as it found it (Push / Pop).
    vtkOpenGLState* state = d->window->GetState();
    state->Reset();
    state->Push();
    d->window->SetReadyForRendering(true);
    d->window->Render();
    d->window->SetReadyForRendering(false);
    state->Pop();
    d->lastRenderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (isSignalConnected(QMetaMethod::fromSignal(&VtkOpenGLWidget::paintOverlay))) {
        QPainter painter(this);
        emit paintOverlay(painter);
    }
    d->renderedSinceSwap = true;
}

} // namespace fleet::views
