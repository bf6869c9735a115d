// SPDX-License-Identifier: Apache-2.0
#include "vtkopenglwidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QExposeEvent>
#include <QLoggingCategory>
#include <QMetaMethod>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QOpenGLPaintDevice>
#include <QPainter>
#include <QPointer>
#include <QScopedValueRollback>
#include <QTimer>
#include <QVBoxLayout>
#include <QWindow>

#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

#include <algorithm>
#include <functional>

Q_LOGGING_CATEGORY(lcVtkWidget, "fleet.views.vtk", QtInfoMsg)
// Per-stage frame times, for tuning (QT_LOGGING_RULES="fleet.views.vtk.frame.debug=true"):
// each stage ends in glFinish, so the software rasterizer's deferred work is counted where
// it was asked for (which makes the frame itself slower).
Q_LOGGING_CATEGORY(lcVtkFrame, "fleet.views.vtk.frame", QtInfoMsg)

namespace fleet::views {

namespace {

// The native window VTK draws into. It paints nothing by itself: exposure and input go to
// the adapter widget, which owns the context and the VTK window.
class RenderSurfaceWindow : public QWindow {
public:
    RenderSurfaceWindow(VtkOpenGLWidget* adapter, std::function<void()> exposed)
        : m_adapter(adapter)
        , m_exposed(std::move(exposed))
    {
        setSurfaceType(QSurface::OpenGLSurface);
        setFormat(VtkOpenGLWidget::vtkSurfaceFormat());
    }

protected:
    void exposeEvent(QExposeEvent*) override
    {
        if (isExposed())
            m_exposed();
    }

    bool event(QEvent* e) override
    {
        switch (e->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseButtonDblClick:
        case QEvent::MouseMove:
        case QEvent::Wheel:
        case QEvent::KeyPress:
        case QEvent::KeyRelease:
        case QEvent::ShortcutOverride:
        case QEvent::Enter:
        case QEvent::Leave:
        case QEvent::DragEnter:
        case QEvent::DragMove:
        case QEvent::DragLeave:
        case QEvent::Drop:
        case QEvent::ContextMenu: // the Menu key while this window holds the X focus
            return forward(e);
        default:
            return QWindow::event(e);
        }
    }

private:
    // The window fills the adapter, so positions need no mapping. A key press while the
    // native window holds the X focus goes where the keyboard focus is in the widget tree,
    // which is the adapter or a widget that took the focus from it.
    bool forward(QEvent* e)
    {
        if (!m_adapter)
            return false;
        // A drag event never comes back here while one is being forwarded: QApplication sends
        // DragMove and Drop to the drag's current target widget, whatever the receiver, so if
        // that target were the container, the container would hand the event to this window
        // again and the two would recurse until the stack overflows. The container refuses
        // drops (see the constructor), so the adapter is the target; this stops any other path.
        const bool drag = e->type() == QEvent::DragEnter || e->type() == QEvent::DragMove
            || e->type() == QEvent::DragLeave || e->type() == QEvent::Drop;
        if (drag && m_forwardingDrag) {
            e->ignore();
            return false;
        }
        const QScopedValueRollback<bool> guard(m_forwardingDrag, m_forwardingDrag || drag);
        QWidget* target = m_adapter;
        if (e->type() == QEvent::KeyPress || e->type() == QEvent::KeyRelease || e->type() == QEvent::ShortcutOverride)
            if (QWidget* focus = QApplication::focusWidget(); focus && focus->window() == m_adapter->window())
                target = focus;
        if (e->type() == QEvent::MouseButtonPress && m_adapter->focusPolicy() & Qt::ClickFocus)
            m_adapter->setFocus(Qt::MouseFocusReason);
        if (e->type() == QEvent::Wheel && (m_adapter->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus)
            m_adapter->setFocus(Qt::MouseFocusReason);
        std::unique_ptr<QEvent> copy(e->clone());
        const bool handled = QApplication::sendEvent(target, copy.get());
        e->setAccepted(copy->isAccepted());
        if (auto* drop = dynamic_cast<QDropEvent*>(e)) {
            drop->setDropAction(static_cast<QDropEvent*>(copy.get())->dropAction());
            drop->setAccepted(copy->isAccepted());
        }
        return handled;
    }

    QPointer<VtkOpenGLWidget> m_adapter;
    std::function<void()> m_exposed;
    bool m_forwardingDrag = false;
};

// Design note (speed): vtkOpenGLRenderWindow::Start() binds VTK's own RenderFramebuffer, so
// every frame is drawn there and then copied into the host's framebuffer (with SwapBuffers,
// twice, depth included). Copies and the extra clear cost about 20 ms CPU a frame on llvmpipe
// at 1920x1080. This window starts a frame like VTK 9.1 does but leaves the host's framebuffer
// bound, so the renderer clears and draws straight into it; SwapBuffers is off, so Frame()
// copies nothing. What needs VTK's framebuffer (FXAA, depth peeling, hardware picking,
// reading VTK's pixels back) is not used by the map.
class DirectRenderWindow : public vtkGenericOpenGLRenderWindow {
public:
    static DirectRenderWindow* New();
    vtkTypeMacro(DirectRenderWindow, vtkGenericOpenGLRenderWindow)

    void Start() override
    {
        if (!this->Initialized)
            this->Initialize();
        this->MakeCurrent();
        if (!this->OwnContext)
            this->GetState()->Initialize(this); // re-read: QPainter changed state behind VTK
        // VTK's standard blend equation, as vtkOpenGLRenderWindow::Start sets it.
        this->GetState()->vtkglEnable(GL_BLEND);
        this->GetState()->vtkglBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        this->Size[0] = this->Size[0] > 0 ? this->Size[0] : 300;
        this->Size[1] = this->Size[1] > 0 ? this->Size[1] : 300;
        this->GetState()->PushFramebufferBindings(); // End() pops them
    }

protected:
    DirectRenderWindow() { this->SetSwapBuffers(0); }
    ~DirectRenderWindow() override = default;
};

vtkStandardNewMacro(DirectRenderWindow);

} // namespace

struct VtkOpenGLWidget::Private {
    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window = vtkSmartPointer<DirectRenderWindow>::New();
    vtkSmartPointer<vtkRenderer> renderer = vtkSmartPointer<vtkRenderer>::New();
    vtkNew<vtkCallbackCommand> contextCallback;
    RenderSurfaceWindow* surfaceWindow = nullptr; // owned by the container
    QWidget* container = nullptr;
    std::unique_ptr<QOpenGLContext> context;
    std::unique_ptr<QOffscreenSurface> offscreen; // for grabs and clean-up while not exposed
    QSurface* surface = nullptr; // what the context is made current on for VTK
    bool renderPending = false; // a merged request is queued
    bool frameWanted = false; // a requested frame has not been swapped yet
    bool initialized = false;
    double lastRenderMs = -1;

    /// Makes the context current on `s` (creating the context first); false if impossible.
    bool makeCurrent(QSurface* s);
    QSurface* offscreenSurface();
    QSize deviceSize(const QWidget* w) const
    {
        const qreal dpr = w->devicePixelRatioF();
        return { std::max(1, qRound(w->width() * dpr)), std::max(1, qRound(w->height() * dpr)) };
    }
};

// VTK asks the host for its context through events on the generic window.
void VtkOpenGLWidget::onVtkWindowEvent(vtkObject*, unsigned long eventId, void* clientData, void* callData)
{
    auto* d = static_cast<VtkOpenGLWidget::Private*>(clientData);
    QOpenGLContext* context = d->context.get();
    switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
        // Only when not current already (DESIGN.md "Build facts").
        if (context && QOpenGLContext::currentContext() != context && d->surface)
            context->makeCurrent(d->surface);
        break;
    case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(callData) = context && QOpenGLContext::currentContext() == context;
        break;
    default:
        break;
    }
}

bool VtkOpenGLWidget::Private::makeCurrent(QSurface* s)
{
    if (!s)
        return false;
    if (!context) {
        context = std::make_unique<QOpenGLContext>();
        context->setFormat(vtkSurfaceFormat());
        if (!context->create()) {
            qCWarning(lcVtkWidget) << "no OpenGL context for VTK" << vtkSurfaceFormat();
            context.reset();
            return false;
        }
    }
    if (!context->makeCurrent(s))
        return false;
    surface = s;
    if (!initialized) {
        if (!window->InitializeFromCurrentContext())
            qCWarning(lcVtkWidget) << "VTK could not initialise from the OpenGL context" << context->format();
        initialized = true;
    }
    return true;
}

QSurface* VtkOpenGLWidget::Private::offscreenSurface()
{
    if (!offscreen) {
        offscreen = std::make_unique<QOffscreenSurface>();
        offscreen->setFormat(vtkSurfaceFormat());
        offscreen->create();
    }
    return offscreen.get();
}

VtkOpenGLWidget::VtkOpenGLWidget(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    d->window->AddRenderer(d->renderer);
    // Render only from renderFrame, where the context is current and the target framebuffer
    // bound; at the end of Render() VTK blits into that framebuffer.
    d->window->SetReadyForRendering(false);
    d->window->SetFrameBlitModeToBlitToCurrent(); // copies nothing: SwapBuffers is off
    d->window->SetMultiSamples(0);
    d->window->SetIsDirect(true);
    d->window->SetSupportsOpenGL(true);
    d->window->SetForceMaximumHardwareLineWidth(1);

    d->contextCallback->SetClientData(d.get());
    d->contextCallback->SetCallback(&VtkOpenGLWidget::onVtkWindowEvent);
    for (const unsigned long e : { vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent })
        d->window->AddObserver(e, d->contextCallback);

    d->surfaceWindow = new RenderSurfaceWindow(this, [this] {
        // The first exposure, or one after the window was covered or resized: draw.
        d->frameWanted = true;
        requestRender();
    });
    d->container = QWidget::createWindowContainer(d->surfaceWindow, this);
    // Keyboard focus stays with this widget (its owner's event filter reads the keys).
    d->container->setFocusPolicy(Qt::NoFocus);
    d->container->setFocusProxy(this);
    d->container->setMouseTracking(true);
    // Drops are the adapter's (its owner calls setAcceptDrops on it). The container accepts
    // drops by default and would then be the drag's target: QApplication sends every DragMove
    // and Drop to that target, the container hands them to the embedded window, and the
    // window forwards them to the adapter, which QApplication sends to the target again (an
    // endless recursion: a crash on the first pod dragged from the node inspector).
    d->container->setAcceptDrops(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->container);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

VtkOpenGLWidget::~VtkOpenGLWidget()
{
    // Free VTK's GL resources while the context still exists.
    if (d->initialized && d->context) {
        QSurface* s = d->surfaceWindow && d->surfaceWindow->handle() ? static_cast<QSurface*>(d->surfaceWindow)
                                                                     : d->offscreenSurface();
        if (d->makeCurrent(s))
            d->window->Finalize();
        d->context->doneCurrent();
        d->initialized = false;
    }
    d->window->RemoveObserver(d->contextCallback);
    d->surface = nullptr;
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
    format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
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

QPointF VtkOpenGLWidget::toVtkDisplay(const QPointF& widgetPos) const
{
    const qreal dpr = devicePixelRatioF();
    return { widgetPos.x() * dpr, (height() - widgetPos.y()) * dpr };
}

void VtkOpenGLWidget::requestRender()
{
    d->frameWanted = true;
    if (d->renderPending)
        return;
    d->renderPending = true;
    // A 1 ms timer, not a posted call (a 0 ms single shot): posted calls run in the same turn of
    // the event loop as the work that asked for the frame, so a plan's takeover (40 to 80 ms)
    // and the frame after it (40 to 100 ms with 40,000 plan marks, llvmpipe, load 5) were one
    // stall; a timer lets the loop turn (input, other timers) between them.
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this] {
        d->renderPending = false;
        if (!d->frameWanted || !d->surfaceWindow->isExposed())
            return; // the exposure asks again
        if (!d->makeCurrent(d->surfaceWindow))
            return;
        d->frameWanted = false;
        QElapsedTimer timer;
        timer.start();
        renderFrame(d->context->defaultFramebufferObject());
        const double renderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        d->context->swapBuffers(d->surfaceWindow);
        if (lcVtkFrame().isDebugEnabled()) {
            d->context->functions()->glFinish();
            qCDebug(lcVtkFrame, "swap %.1f ms", static_cast<double>(timer.nsecsElapsed()) / 1e6 - renderMs);
        }
        emit frameRendered();
    });
}

void VtkOpenGLWidget::renderFrame(unsigned framebuffer)
{
    const QSize px = d->deviceSize(this);
    const qreal dpr = devicePixelRatioF();
    if (d->window->GetSize()[0] != px.width() || d->window->GetSize()[1] != px.height())
        d->window->SetSize(px.width(), px.height());
    d->window->SetPosition(0, 0);
    // Text sizes are given in points at 72 dpi: VTK scales them by DPI / 72, so they keep
    // their logical size on a high-density screen.
    const int dpi = qRound(72 * dpr);
    if (d->window->GetDPI() != dpi)
        d->window->SetDPI(dpi);
    QOpenGLFunctions* gl = d->context->functions();
    gl->glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    gl->glViewport(0, 0, px.width(), px.height());
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
    const bool debug = lcVtkFrame().isDebugEnabled();
    if (debug)
        gl->glFinish();
    d->lastRenderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (isSignalConnected(QMetaMethod::fromSignal(&VtkOpenGLWidget::paintOverlay))) {
        timer.start();
        gl->glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
        QOpenGLPaintDevice device(px);
        device.setDevicePixelRatio(dpr);
        {
            QPainter painter(&device);
            emit paintOverlay(painter);
        }
        if (debug) {
            gl->glFinish();
            qCDebug(lcVtkFrame, "vtk %.1f ms, overlay %.1f ms", d->lastRenderMs, static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
    }
}

QImage VtkOpenGLWidget::grabFramebuffer()
{
    QSurface* s = d->surfaceWindow->isExposed() ? static_cast<QSurface*>(d->surfaceWindow) : d->offscreenSurface();
    if (!d->makeCurrent(s))
        return {};
    QOpenGLFramebufferObjectFormat format;
    format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
    QOpenGLFramebufferObject fbo(d->deviceSize(this), format);
    if (!fbo.isValid())
        return {};
    fbo.bind(); // also what Qt's paint engine draws into
    renderFrame(fbo.handle());
    QImage image = fbo.toImage();
    fbo.release();
    image.setDevicePixelRatio(devicePixelRatioF());
    return image;
}

bool VtkOpenGLWidget::event(QEvent* e)
{
    // The embedded window shows the pointer's shape: a cursor set on this widget goes there.
    if (e->type() == QEvent::CursorChange && d && d->surfaceWindow)
        d->surfaceWindow->setCursor(cursor());
    return QWidget::event(e);
}

} // namespace fleet::views
