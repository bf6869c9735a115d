// SPDX-License-Identifier: Apache-2.0
// PrivateXServer: a real Xvfb is started, reachable, and gone after stop().

#include "app/xvfb/privatexserver.h"

#include <QtTest>

#include <csignal>

using fleet::app::PrivateXServer;

class TestPrivateXServer : public QObject {
    Q_OBJECT
private slots:
    void startsAndStops_data();
    void startsAndStops();
    void twoServersGetTwoDisplays();
    void unknownDisplayCannotBeOpened();
};

void TestPrivateXServer::startsAndStops_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::newRow("small") << 320 << 240;
    QTest::newRow("wide") << 1920 << 1080;
}

void TestPrivateXServer::startsAndStops()
{
    QFETCH(int, width);
    QFETCH(int, height);
    PrivateXServer server;
    const std::string display = server.start(width, height);
    QVERIFY(display.size() >= 2 && display[0] == ':');
    QVERIFY(server.isRunning());
    const pid_t pid = server.pid();
    QVERIFY(fleet::app::canOpenXDisplay(display));
    server.stop();
    QVERIFY(!server.isRunning());
    // Reaped: the pid names no process any more. (Whether the display opens is not checked:
    // under ctest -j another test's Xvfb may take the freed display number at once.)
    QCOMPARE(::kill(pid, 0), -1);
    server.stop(); // twice is fine
}

void TestPrivateXServer::twoServersGetTwoDisplays()
{
    PrivateXServer a;
    PrivateXServer b;
    const std::string da = a.start(320, 240);
    const std::string db = b.start(320, 240);
    QVERIFY(da != db);
    QVERIFY(fleet::app::canOpenXDisplay(da));
    QVERIFY(fleet::app::canOpenXDisplay(db));
}

void TestPrivateXServer::unknownDisplayCannotBeOpened()
{
    QVERIFY(!fleet::app::canOpenXDisplay(":987"));
}

QTEST_GUILESS_MAIN(TestPrivateXServer)
#include "tst_privatexserver.moc"
