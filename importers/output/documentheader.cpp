// SPDX-License-Identifier: Apache-2.0
#include "documentheader.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fleet::importers {

bool isFleetDocumentFile(const std::string& path)
{
    // Only a regular file is sniffed: opening a FIFO would block for a writer and reading it
    // would eat what the cluster reader needs (which refuses FIFOs and devices by name).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat st { };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return false;
    }
    unsigned char head[72];
    std::size_t got = 0;
    while (got < sizeof head) {
        const ssize_t n = ::read(fd, head + got, sizeof head - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    const std::uint32_t applicationId
        = std::uint32_t(head[68]) << 24 | std::uint32_t(head[69]) << 16 | std::uint32_t(head[70]) << 8 | head[71];
    return got == sizeof head && std::memcmp(head, "SQLite format 3", 16) == 0 && applicationId == kFleetApplicationId;
}

} // namespace fleet::importers
