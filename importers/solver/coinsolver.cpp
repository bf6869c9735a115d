// SPDX-License-Identifier: Apache-2.0
// COIN-OR Clp / Cbc behind model::LinearProgram (coinsolver.h).
#include "coinsolver.h"

#include <coin/CbcModel.hpp>
#include <coin/ClpSimplex.hpp>
#include <coin/ClpSolve.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <coin/OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace fleet::importers {

namespace {

using model::LinearProgram;
using model::LinearProgramSolution;

double coinBound(double v)
{
    return std::isinf(v) ? (v > 0 ? COIN_DBL_MAX : -COIN_DBL_MAX) : v;
}

std::string checkShape(const LinearProgram& lp)
{
    const std::size_t columns = lp.objective.size();
    if (lp.columnLower.size() != columns || lp.columnUpper.size() != columns || lp.integer.size() != columns)
        return "the column vectors differ in length";
    if (lp.rowLower.size() != lp.rowUpper.size())
        return "the row vectors differ in length";
    for (const LinearProgram::Entry& e : lp.entries)
        if (e.row < 0 || static_cast<std::size_t>(e.row) >= lp.rowLower.size() || e.column < 0 || static_cast<std::size_t>(e.column) >= columns)
            return "an entry names row " + std::to_string(e.row) + ", column " + std::to_string(e.column) + ", which does not exist";
    return {};
}

} // namespace

LinearProgramSolution solveWithCoin(const LinearProgram& lp, const model::LinearProgramLimits& limits)
{
    const auto t0 = std::chrono::steady_clock::now();
    LinearProgramSolution s;
    if (std::string bad = checkShape(lp); !bad.empty()) {
        s.message = "malformed linear program: " + bad;
        return s;
    }
    const int columns = static_cast<int>(lp.columnCount());
    const int rows = static_cast<int>(lp.rowCount());
    std::vector<int> rowIndex, columnIndex;
    std::vector<double> element;
    rowIndex.reserve(lp.entries.size());
    columnIndex.reserve(lp.entries.size());
    element.reserve(lp.entries.size());
    for (const LinearProgram::Entry& e : lp.entries) {
        rowIndex.push_back(e.row);
        columnIndex.push_back(e.column);
        element.push_back(e.value);
    }
    CoinPackedMatrix matrix(true, rowIndex.data(), columnIndex.data(), element.data(), static_cast<CoinBigIndex>(element.size()));
    matrix.setDimensions(rows, columns);
    std::vector<double> colLower(columns), colUpper(columns), rowLower(rows), rowUpper(rows);
    for (int j = 0; j < columns; ++j) {
        colLower[j] = coinBound(lp.columnLower[j]);
        colUpper[j] = coinBound(lp.columnUpper[j]);
    }
    for (int i = 0; i < rows; ++i) {
        rowLower[i] = coinBound(lp.rowLower[i]);
        rowUpper[i] = coinBound(lp.rowUpper[i]);
    }
    bool anyInteger = false;
    for (const std::uint8_t v : lp.integer)
        anyInteger = anyInteger || v != 0;
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

    if (!anyInteger || limits.relaxIntegers) {
        ClpSimplex clp;
        clp.setLogLevel(0);
        clp.loadProblem(matrix, colLower.data(), colUpper.data(), lp.objective.data(), rowLower.data(), rowUpper.data());
        if (limits.timeLimitSeconds > 0)
            clp.setMaximumSeconds(limits.timeLimitSeconds);
        // Presolve, then Clp's choice of method: on a program with many more columns than
        // rows (the packing's), that is the sprint (sifting) primal, far faster than the dual
        // simplex from a slack basis.
        ClpSolve how;
        how.setPresolveType(ClpSolve::presolveOn);
        how.setSolveType(ClpSolve::automatic);
        clp.initialSolve(how);
        s.objective = clp.objectiveValue();
        // Clp's status: 0 optimal, 1 primal infeasible, 2 dual infeasible, 3 stopped on
        // iterations or time, 4 stopped on errors.
        switch (clp.status()) {
        case 0:
            s.status = LinearProgramSolution::Status::Optimal;
            s.provenLowerBound = s.objective;
            break;
        case 1:
            s.status = LinearProgramSolution::Status::Infeasible;
            s.message = "Clp: the program is infeasible";
            break;
        case 3:
            s.status = LinearProgramSolution::Status::TimeLimit;
            s.message = "Clp stopped at the time limit before the optimum";
            break;
        default:
            s.status = LinearProgramSolution::Status::Failed;
            s.message = "Clp stopped with status " + std::to_string(clp.status());
            break;
        }
        if (s.status == LinearProgramSolution::Status::Optimal)
            s.values.assign(clp.primalColumnSolution(), clp.primalColumnSolution() + columns);
        s.seconds = seconds();
        return s;
    }

    OsiClpSolverInterface osi;
    osi.messageHandler()->setLogLevel(0);
    osi.loadProblem(matrix, colLower.data(), colUpper.data(), lp.objective.data(), rowLower.data(), rowUpper.data());
    for (int j = 0; j < columns; ++j)
        if (lp.integer[j])
            osi.setInteger(j);
    CbcModel cbc(osi);
    cbc.setLogLevel(0);
    cbc.messageHandler()->setLogLevel(0);
    if (limits.timeLimitSeconds > 0)
        cbc.setMaximumSeconds(limits.timeLimitSeconds);
    cbc.initialSolve();
    cbc.branchAndBound();
    if (cbc.isProvenInfeasible()) {
        s.status = LinearProgramSolution::Status::Infeasible;
        s.message = "Cbc: the program is infeasible";
    } else if (cbc.isProvenOptimal()) {
        s.status = LinearProgramSolution::Status::Optimal;
    } else if (cbc.isSecondsLimitReached()) {
        s.status = LinearProgramSolution::Status::TimeLimit;
        s.message = "Cbc stopped at the time limit";
    } else {
        s.status = LinearProgramSolution::Status::Failed;
        s.message = "Cbc stopped with status " + std::to_string(cbc.status()) + ", secondary " + std::to_string(cbc.secondaryStatus());
    }
    if (s.status != LinearProgramSolution::Status::Infeasible) {
        s.provenLowerBound = cbc.getBestPossibleObjValue();
        if (cbc.bestSolution()) {
            s.objective = cbc.getObjValue();
            s.values.assign(cbc.bestSolution(), cbc.bestSolution() + columns);
            if (s.status == LinearProgramSolution::Status::Optimal)
                s.provenLowerBound = std::max(s.provenLowerBound, s.objective - 1e-6);
        }
    }
    s.seconds = seconds();
    return s;
}

} // namespace fleet::importers
