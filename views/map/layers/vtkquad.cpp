#include "vtkquad.h"

#include <QImage>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSmartPointer.h>
#include <vtkTexture.h>

#include <array>
#include <cstring>

namespace fleet::views {

void setUpTexturedQuad(vtkTexture* texture, vtkImageData* image, vtkPolyData* quad, vtkActor* actor)
{
    texture->SetInputData(image);
    texture->InterpolateOff(); // nearest: one crisp texel per node
    texture->MipmapOff();
    texture->RepeatOff();
    texture->EdgeClampOn();
    texture->SetColorModeToDirectScalars();
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(quad);
    mapper->ScalarVisibilityOff();
    actor->SetMapper(mapper);
    actor->SetTexture(texture);
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
