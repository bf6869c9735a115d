#include "texelimagelayer.h"

#include "views/map/layers/vtkquad.h"
#include "views/map/colormap.h"
#include "views/map/mapraster.h"

#include <vtkActor.h>
#include <vtkImageData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTexture.h>

#include <cstring>

namespace fleet::views {

struct TexelImageLayer::Private {
    vtkSmartPointer<vtkImageData> image = vtkSmartPointer<vtkImageData>::New();
    vtkSmartPointer<vtkTexture> texture = vtkSmartPointer<vtkTexture>::New();
    vtkSmartPointer<vtkPolyData> quad = vtkSmartPointer<vtkPolyData>::New();
    vtkSmartPointer<vtkActor> actor = vtkSmartPointer<vtkActor>::New();
    QImage raster; // MapRaster's image, undimmed
    QImage dimmed; // the raster with the mask applied (reused allocation)
};

TexelImageLayer::TexelImageLayer()
    : d(std::make_unique<Private>())
{
}

TexelImageLayer::~TexelImageLayer() = default;

void TexelImageLayer::attach(vtkRenderer* renderer)
{
    setUpTexturedQuad(d->texture, d->image, d->quad, d->actor);
    d->actor->VisibilityOff();
    renderer->AddActor(d->actor);
}

void TexelImageLayer::sceneChanged(const MapScene& scene, unsigned changes)
{
    if (!(changes & (ClusterChanged | MetricChanged | MaskChanged)))
        return;
    if (!scene.hasMap()) {
        d->image->Initialize();
        d->actor->VisibilityOff();
        return;
    }
    if (changes & ClusterChanged)
        setQuadGeometry(d->quad, scene.layout.width(), scene.layout.height(), 0.0);
    if (changes & (ClusterChanged | MetricChanged))
        d->raster = scene.metricContext && scene.column
            ? MapRaster::render(*scene.metricContext, scene.layout, *scene.metricRef, *scene.column)
            : MapRaster::render(*scene.store, scene.layout, scene.metric);
    if (!scene.mask) {
        copyToImage(d->raster, d->image);
    } else {
        d->dimmed = d->raster; // shares until written
        const QColor bg = mapBackgroundColor();
        const int keep = kDimKeepPercent;
        const std::vector<std::uint8_t>& mask = *scene.mask;
        const std::size_t nodes = std::min(mask.size(), scene.store->nodeCount());
        // RGBA8888: bytes R, G, B, A in memory.
        unsigned char* bits = d->dimmed.bits();
        const auto stride = static_cast<std::size_t>(d->dimmed.bytesPerLine());
        const int bgc[3] = { bg.red(), bg.green(), bg.blue() };
        for (std::size_t i = 0; i < nodes; ++i) {
            if (mask[i] != 0)
                continue;
            const CellPos c = scene.layout.nodeCell(model::NodeId(static_cast<std::uint32_t>(i)));
            if (!c.isValid())
                continue;
            unsigned char* px = bits + static_cast<std::size_t>(c.y) * stride + static_cast<std::size_t>(c.x) * 4;
            for (int k = 0; k < 3; ++k)
                px[k] = static_cast<unsigned char>((px[k] * keep + bgc[k] * (100 - keep)) / 100);
        }
        copyToImage(d->dimmed, d->image);
    }
    d->texture->Modified();
    d->actor->VisibilityOn();
}

} // namespace fleet::views
