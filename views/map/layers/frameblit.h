// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's cached frame image put on the GL frame by a copy, not a textured draw.
//
// Why: on llvmpipe (software OpenGL, the design's target) drawing a view-sized image through
// Qt's OpenGL paint engine costs a new texture for every changed image (allocation, a format
// conversion, the upload) and a shaded full-view quad on the rasterizer threads: together
// most of a recolor's frame (bench_map). Here the image goes into one kept texture
// (glTexSubImage2D, its rows as they are in memory) and onto the frame by a vertically
// flipped glBlitFramebuffer: to a window, whose framebuffer Mesa stores top row first, that
// is a copy of equal size and format, which llvmpipe does as a memory copy.
// A frame whose image did not change (the same QImage::cacheKey()) is only copied again.
// Measured (bench_map, 1920x1080, llvmpipe, load 7 from other builds): CPU per frame overview
// 19.7 -> 2.2 ms, recolor 33.2 -> 12.1, label filter 43.6 -> 13.6, zoomed pan 37.3 -> 17.1.
//
// Where the context cannot blit (no OpenGL 3.0 / ES 3.0 framebuffer blit, an incomplete
// framebuffer), draw() says so and the caller draws the image through QPainter as before.
// Thread: GUI thread, with the painter's OpenGL context current.

#include <QImage>

#include <memory>

class QPainter;

namespace fleet::views {

class FrameBlit {
public:
    FrameBlit();
    ~FrameBlit();
    FrameBlit(const FrameBlit&) = delete;
    FrameBlit& operator=(const FrameBlit&) = delete;

    /// Copies `frame` (QImage::Format_RGB32, the size of the target's viewport in device
    /// pixels) over the whole framebuffer `target` paints on (a QOpenGLPaintDevice). False
    /// when it could not (not an OpenGL painter, another format or size, no blit): nothing
    /// was drawn then.
    bool draw(QPainter& target, const QImage& frame);

private:
    struct Gl;
    std::unique_ptr<Gl> d;
};

} // namespace fleet::views
