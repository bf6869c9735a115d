#include "vtkquad.h"

#include <QImage>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLPolyDataMapper.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkOpenGLState.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTexture.h>
#include <vtk_glew.h> // GL_BLEND, GL_DEPTH_TEST

#include <array>
#include <cstring>

namespace fleet::views {

namespace {

// Design note (speed, issue 5): on llvmpipe the cost of a frame is the fragments it shades,
// and the texel quad covers most of the view. VTK draws an opaque actor with blending and the
// depth test on (vtkOpenGLRenderWindow::Start, vtkOpenGLRenderer), which reads the colour
// and depth buffers back for every fragment: a full-view quad then cost about 30 ms where the
// same quad with both off cost 12 ms (1920x1080, 2 loaded cores; tests/bench/bench_map). The
// image is opaque and nothing lies under or over it in VTK, so neither changes a pixel.
class OpaqueQuadMapper : public vtkOpenGLPolyDataMapper {
public:
    static OpaqueQuadMapper* New();
    vtkTypeMacro(OpaqueQuadMapper, vtkOpenGLPolyDataMapper)

    void RenderPiece(vtkRenderer* renderer, vtkActor* actor) override
    {
        auto* window = vtkOpenGLRenderWindow::SafeDownCast(renderer->GetRenderWindow());
        if (!window) {
            Superclass::RenderPiece(renderer, actor);
            return;
        }
        vtkOpenGLState* state = window->GetState();
        const vtkOpenGLState::ScopedglEnableDisable blend(state, GL_BLEND); // restored on return
        const vtkOpenGLState::ScopedglEnableDisable depth(state, GL_DEPTH_TEST);
        state->vtkglDisable(GL_BLEND);
        state->vtkglDisable(GL_DEPTH_TEST);
        Superclass::RenderPiece(renderer, actor);
    }

protected:
    OpaqueQuadMapper() = default;
    ~OpaqueQuadMapper() override = default;
};

vtkStandardNewMacro(OpaqueQuadMapper);

} // namespace

void setUpTexturedQuad(vtkTexture* texture, vtkImageData* image, vtkPolyData* quad, vtkActor* actor)
{
    texture->SetInputData(image);
    texture->InterpolateOff(); // nearest: one crisp texel per node
    texture->MipmapOff();
    texture->RepeatOff();
    texture->EdgeClampOn();
    texture->SetColorModeToDirectScalars();
    auto mapper = vtkSmartPointer<OpaqueQuadMapper>::New();
    mapper->SetInputData(quad);
    mapper->ScalarVisibilityOff();
    actor->SetMapper(mapper);
    actor->SetTexture(texture);
    // Opaque: VTK need not scan the texture's alpha (vtkTexture::IsTranslucent) after each
    // change to pick its render pass.
    actor->ForceOpaqueOn();
    actor->GetProperty()->LightingOff();
    actor->GetProperty()->SetColor(1, 1, 1);
}

void setQuadGeometry(vtkPolyData* quad, int width, int height, double z)
{
    const double w = width, h = height;
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->InsertNextPoint(0, h, z);
    points->InsertNextPoint(w, h, z);
    points->InsertNextPoint(w, 0, z);
    points->InsertNextPoint(0, 0, z);
    auto tcoords = vtkSmartPointer<vtkFloatArray>::New();
    tcoords->SetNumberOfComponents(2);
    const float tc[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
    for (const auto& t : tc)
        tcoords->InsertNextTuple(std::array<double, 2> { t[0], t[1] }.data());
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    const vtkIdType ids[4] = { 0, 1, 2, 3 };
    polys->InsertNextCell(4, ids);
    quad->Initialize();
    quad->SetPoints(points);
    quad->SetPolys(polys);
    quad->GetPointData()->SetTCoords(tcoords);
    quad->Modified();
}

void copyToImage(const QImage& rgba, vtkImageData* image)
{
    int dims[3] = { 0, 0, 0 };
    image->GetDimensions(dims);
    if (dims[0] != rgba.width() || dims[1] != rgba.height() || image->GetNumberOfScalarComponents() != 4
        || !image->GetScalarPointer()) {
        image->SetDimensions(rgba.width(), rgba.height(), 1);
        image->AllocateScalars(VTK_UNSIGNED_CHAR, 4);
    }
    auto* dst = static_cast<unsigned char*>(image->GetScalarPointer());
    const auto rowBytes = static_cast<std::size_t>(rgba.width()) * 4;
    for (int y = 0; y < rgba.height(); ++y)
        std::memcpy(dst + static_cast<std::size_t>(y) * rowBytes, rgba.constScanLine(y), rowBytes);
    image->Modified();
}

} // namespace fleet::views
