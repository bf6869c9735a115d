// SPDX-License-Identifier: Apache-2.0
// Fuzzes the price table reader (importers/pricing/pricetableloader.h, `--prices FILE`): any
// bytes give a PriceTable or a PriceTableError, never a crash or another exception.
#include "importers/pricing/pricetableloader.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)fleet::importers::parsePriceTable(text, "fuzz.csv");
    } catch (const fleet::importers::PriceTableError&) {
    }
    return 0;
}
