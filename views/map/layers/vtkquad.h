#pragma once
// Helpers shared by the layers that draw a layout-sized image as one textured quad (the
// texel image, the filter's dimming). Internal to views/map/layers; VTK types are only
// forward-declared here.

class QImage;
class vtkActor;
class vtkImageData;
class vtkPolyData;
class vtkTexture;

namespace fleet::views {

/// Wires texture <- image and actor <- mapper(quad) with nearest filtering, clamped edges,
/// direct RGBA scalars and no lighting (texel colours reach the screen unchanged). The actor
/// is opaque and drawn with blending and the depth test off: the image must be opaque and
/// the only thing VTK draws where it lies (see the design note in the .cpp).
void setUpTexturedQuad(vtkTexture* texture, vtkImageData* image, vtkPolyData* quad, vtkActor* actor);
/// Sets `quad` to the rectangle [0, width] x [0, height] at depth z, texture row 0 (image
/// row 0, the top row of cells) at world y = height.
void setQuadGeometry(vtkPolyData* quad, int width, int height, double z);
/// Copies an RGBA8888 image (row 0 at the top) into `image` (4 unsigned-char components)
/// and marks it modified. Reuses the allocation when the size is unchanged.
void copyToImage(const QImage& rgba, vtkImageData* image);

} // namespace fleet::views
