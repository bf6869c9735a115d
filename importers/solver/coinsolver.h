// SPDX-License-Identifier: Apache-2.0
#pragma once
// Solves a model::LinearProgram with COIN-OR (Debian's coinor-libclp-dev and coinor-libcbc-dev,
// EPL-2.0): Clp (presolve, then its automatic choice of method) for a program without integer columns (or with
// LinearProgramLimits::relaxIntegers), Cbc's branch and bound over Clp otherwise. The COIN
// headers stay in coinsolver.cpp.
//
// Errors: never throws for a well-formed program; a malformed one (an entry naming a row or
// column that does not exist, vectors of different lengths) gives Status::Failed with the
// reason in `message`. The solvers' logs are silenced.
// Thread: any; each call owns its solver objects (Clp and Cbc keep no global state we use).

#include "model/search/linearprogram.h"

namespace fleet::importers {

[[nodiscard]] model::LinearProgramSolution solveWithCoin(const model::LinearProgram& program, const model::LinearProgramLimits& limits = {});

} // namespace fleet::importers
