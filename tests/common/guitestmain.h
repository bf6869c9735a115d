// SPDX-License-Identifier: Apache-2.0
#pragma once
// The main() of every test that opens a widget with OpenGL (the map, the main window): the
// default surface format is set before QApplication exists (as fleetscope's main() does; Qt
// reads it when the first GL context is made), then the test object runs under QTest.
//
//   FLEET_GUI_TEST_MAIN(TestPlanWindow, fleet::app::setDefaultSurfaceFormat)
//   FLEET_GUI_TEST_MAIN(TestPlanMap, fleet::testing::setVtkSurfaceFormat)

#include "views/vtk/vtkopenglwidget.h"

#include <QApplication>
#include <QSurfaceFormat>
#include <QTest>

namespace fleet::testing {

/// The map widget's own surface format as the default (the views tests, which have no app/).
inline void setVtkSurfaceFormat() { QSurfaceFormat::setDefaultFormat(views::VtkOpenGLWidget::vtkSurfaceFormat()); }

struct GuiTestOptions {
    /// False for tests that close the last window and show it again.
    bool quitOnLastWindowClosed = true;
};

/// Sets the surface format, makes the QApplication, runs a `Test` under QTest::qExec.
template <class Test>
int runGuiTest(int argc, char** argv, void (*setSurfaceFormat)(), GuiTestOptions options = {})
{
    setSurfaceFormat();
    QApplication app(argc, argv);
    QApplication::setQuitOnLastWindowClosed(options.quitOnLastWindowClosed);
    Test test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace fleet::testing

#define FLEET_GUI_TEST_MAIN(TestClass, setSurfaceFormat)                                                                         \
    int main(int argc, char** argv) { return fleet::testing::runGuiTest<TestClass>(argc, argv, &(setSurfaceFormat)); }
