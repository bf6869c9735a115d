// SPDX-License-Identifier: Apache-2.0
#include "frameblit.h"

#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLPaintDevice>
#include <QPainter>

namespace fleet::views {

struct FrameBlit::Gl {
    QOpenGLContext* context = nullptr; // the context the names below belong to
    QMetaObject::Connection destroyed;
    GLuint texture = 0;
    GLuint framebuffer = 0;
    QSize size;
    qint64 uploadedKey = 0; // QImage::cacheKey() of the image in the texture
    bool unusable = false;  // the framebuffer was incomplete once: QPainter from then on

    void release()
    {
        if (context && QOpenGLContext::currentContext() == context) {
            QOpenGLExtraFunctions* f = context->extraFunctions();
            if (framebuffer)
                f->glDeleteFramebuffers(1, &framebuffer);
            if (texture)
                f->glDeleteTextures(1, &texture);
        } // else they go with the context (not current here, or already destroyed)
        QObject::disconnect(destroyed);
        context = nullptr;
        texture = framebuffer = 0;
        size = {};
        uploadedKey = 0;
        unusable = false;
    }
};

FrameBlit::FrameBlit()
    : d(std::make_unique<Gl>())
{
}

FrameBlit::~FrameBlit()
{
    d->release();
}

bool FrameBlit::draw(QPainter& target, const QImage& frame)
{
    if (!target.device() || target.device()->devType() != QInternal::OpenGL || frame.format() != QImage::Format_RGB32)
        return false;
    QOpenGLContext* context = QOpenGLContext::currentContext();
    if (!context || !(context->hasExtension("GL_ARB_framebuffer_object") || context->format().majorVersion() >= 3))
        return false;
    const QSize device = static_cast<QOpenGLPaintDevice*>(target.device())->size();
    if (frame.size() != device)
        return false;
    if (d->context != context) {
        d->release();
        d->context = context;
        d->destroyed = QObject::connect(context, &QOpenGLContext::aboutToBeDestroyed, context, [gl = d.get()] { gl->release(); });
    }
    if (d->unusable)
        return false;

    target.beginNativePainting();
    QOpenGLExtraFunctions* f = context->extraFunctions();
    GLint drawBinding = 0;
    GLint readBinding = 0;
    f->glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &drawBinding);
    f->glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &readBinding);
    if (!d->texture || d->size != frame.size()) {
        if (!d->texture)
            f->glGenTextures(1, &d->texture);
        f->glBindTexture(GL_TEXTURE_2D, d->texture);
        f->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        f->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        // Unsized GL_RGBA: Mesa then stores the texture in the format of the upload's
        // format and type (B8G8R8A8, as a window's framebuffer is), and a blit between
        // equal formats is a copy; GL_RGBA8 gives R8G8B8A8 and a shaded blit (measured:
        // 16 ms CPU a frame at 1920x1080 against 2).
        f->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, frame.width(), frame.height(), 0, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, nullptr);
        d->size = frame.size();
        d->uploadedKey = 0;
        if (!d->framebuffer)
            f->glGenFramebuffers(1, &d->framebuffer);
        f->glBindFramebuffer(GL_READ_FRAMEBUFFER, d->framebuffer);
        f->glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, d->texture, 0);
        if (f->glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            d->unusable = true;
    }
    if (!d->unusable && d->uploadedKey != frame.cacheKey()) {
        // RGB32 is B, G, R, 0xff in memory on a little-endian machine (and A, R, G, B on a
        // big-endian one, where GL_UNSIGNED_INT_8_8_8_8_REV reads the same word order).
        f->glBindTexture(GL_TEXTURE_2D, d->texture);
        f->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        f->glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        // The rows as they are in memory, top one first: texture row 0 is the image's top
        // row, and the blit below turns it over.
        f->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, frame.width(), frame.height(), GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV,
            frame.constBits());
        d->uploadedKey = frame.cacheKey();
    }
    if (!d->unusable) {
        f->glBindFramebuffer(GL_READ_FRAMEBUFFER, d->framebuffer);
        f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(drawBinding));
        f->glDisable(GL_SCISSOR_TEST);
        // Turned over: the texture's row 0 (the image's top) to the frame's top. A window's
        // framebuffer is stored top row first, as the texture is, so to a window this is a
        // plain copy of memory (Mesa turns a blit into one when rows need not move); into a
        // framebuffer object (a screenshot) it is a flipped blit.
        f->glBlitFramebuffer(0, 0, frame.width(), frame.height(), 0, frame.height(), frame.width(), 0, GL_COLOR_BUFFER_BIT,
            GL_NEAREST);
    }
    f->glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(readBinding));
    f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(drawBinding));
    f->glBindTexture(GL_TEXTURE_2D, 0);
    target.endNativePainting();
    return !d->unusable;
}

} // namespace fleet::views
