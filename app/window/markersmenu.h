// SPDX-License-Identifier: Apache-2.0
#pragma once
// View > Markers: the problem markers on or off, and per kind. At the fleet zoom of a large
// cluster the markers (a fixed on-screen size each) can cover the metric's colours.

class QMenu;

namespace fleet::views {
class FleetMapView;
}

namespace fleet::app {

/// Adds the Markers submenu (objectName menuMarkers) to `view`: "Show Markers" (Ctrl+M, all
/// markers on or off) and one checkable action per kind (NotReady, Cordoned, Other Problems),
/// all on at start; they set FleetMapView::setShownMarkerKinds(). Thread: GUI thread.
void addMarkersMenu(QMenu* view, views::FleetMapView* map);

} // namespace fleet::app
