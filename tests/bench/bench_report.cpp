// SPDX-License-Identifier: Apache-2.0
// bench_report: the report of a simulated fleet's consolidation plan, as a user makes it.
//
//   bench_report [NODES] [WORK_DIR]   (defaults 100000 and the current folder)
//
// Makes the plan once with `fleetscope plan consolidate --simulate NODES` (not timed; kept as
// WORK_DIR/bench_report_plan_NODES.json and reused by later runs: at 100,000 nodes the search
// takes about half a minute and gives about 20,000 actions), then times `fleetscope report
// --simulate NODES --plan PLAN -o WORK_DIR/bench_report.pdf` as a child process: wall seconds
// from fork to exit, and its peak resident set (wait4's ru_maxrss: the simulation, the plan
// engine, the maps and the laid-out pages together). Prints the report command's own line, then
// one JSON object last: {"nodes", "actions", "pages", "seconds", "rss_mb", "bytes"}. Targets
// (docs/reports.md): <= 10 s and <= 1.5 GB. Passes or fails nothing.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct ChildRun {
    int status = -1;
    double seconds = 0;
    long maxRssKb = 0;
    std::string out;
};

// Runs FLEETSCOPE_EXECUTABLE with `args`, its stdout captured, stderr passed through.
ChildRun runFleetscope(const std::vector<std::string>& args)
{
    ChildRun r;
    int pipeFds[2];
    if (pipe(pipeFds) != 0)
        return r;
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipeFds[1], 1);
        close(pipeFds[0]);
        close(pipeFds[1]);
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(FLEETSCOPE_EXECUTABLE));
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(FLEETSCOPE_EXECUTABLE, argv.data());
        _exit(127);
    }
    close(pipeFds[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(pipeFds[0], buf, sizeof buf)) > 0)
        r.out.append(buf, static_cast<std::size_t>(n));
    close(pipeFds[0]);
    struct rusage usage { };
    int status = 0;
    if (wait4(pid, &status, 0, &usage) == pid) {
        r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.maxRssKb = usage.ru_maxrss;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

bool exists(const std::string& path)
{
    struct stat st { };
    return stat(path.c_str(), &st) == 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string nodes = argc > 1 ? argv[1] : "100000";
    const std::string dir = argc > 2 ? argv[2] : ".";
    const std::string plan = dir + "/bench_report_plan_" + nodes + ".json";
    const std::string pdf = dir + "/bench_report.pdf";
    if (!exists(plan)) {
        std::printf("making the consolidation plan (not timed): fleetscope plan consolidate --simulate %s -o %s\n", nodes.c_str(), plan.c_str());
        std::fflush(stdout);
        const ChildRun c = runFleetscope({ "plan", "consolidate", "--simulate", nodes, "-o", plan });
        if (c.status != 0) {
            std::fprintf(stderr, "bench_report: plan consolidate failed (%d)\n", c.status);
            return 1;
        }
        std::printf("plan made in %.1f s\n", c.seconds);
    }
    std::ifstream planFile(plan);
    std::stringstream planText;
    planText << planFile.rdbuf();
    // Each action is one object with a "type" key (resources/schemas/plan-v1.md); the kept-node
    // record after the actions ("consolidation") has none. One copy of the text: str() copies.
    const std::string text = planText.str();
    std::size_t actions = 0;
    for (std::size_t at = text.find("\"type\""); at != std::string::npos; at = text.find("\"type\"", at + 1))
        ++actions;

    const ChildRun r = runFleetscope({ "report", "--simulate", nodes, "--plan", plan, "-o", pdf });
    if (r.status != 0) {
        std::fprintf(stderr, "bench_report: report failed (%d)\n", r.status);
        return 1;
    }
    std::fputs(r.out.c_str(), stdout);
    long pages = -1;
    long long bytes = -1;
    std::smatch m;
    if (std::regex_search(r.out, m, std::regex("\\((\\d+) pages, (\\d+) bytes"))) {
        pages = std::stol(m[1]);
        bytes = std::stoll(m[2]);
    }
    std::printf("report of %s nodes, %zu actions: %ld pages, %lld bytes, %.2f s, peak RSS %.0f MB\n", nodes.c_str(), actions, pages, bytes,
        r.seconds, static_cast<double>(r.maxRssKb) / 1024.0);
    std::printf("{\"nodes\": %s, \"actions\": %zu, \"pages\": %ld, \"seconds\": %.2f, \"rss_mb\": %.0f, \"bytes\": %lld}\n", nodes.c_str(), actions,
        pages, r.seconds, static_cast<double>(r.maxRssKb) / 1024.0, bytes);
    return 0;
}
