// SPDX-License-Identifier: Apache-2.0
#pragma once
// A linear program as plain data, so that the planner can state one (packingrelaxation.h) and a
// solver adapter outside model/ can solve it (importers/solver/coinsolver.h, COIN-OR Clp and
// Cbc) without the solver's headers reaching the model.
//
//   minimise    sum_j objective[j] * x[j]
//   subject to  rowLower[i] <= sum_j A[i][j] * x[j] <= rowUpper[i]
//               columnLower[j] <= x[j] <= columnUpper[j], x[j] integer where integer[j]
//
// A is given as triplets (row, column, value); a bound of +-kInfinity is no bound.
// Thread: plain values.

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace fleet::model {

struct LinearProgram {
    static constexpr double kInfinity = std::numeric_limits<double>::infinity();
    std::vector<double> columnLower, columnUpper, objective;
    std::vector<std::uint8_t> integer; // per column: 1 integer, 0 continuous
    std::vector<double> rowLower, rowUpper;
    struct Entry {
        std::int32_t row = 0;
        std::int32_t column = 0;
        double value = 0;
    };
    std::vector<Entry> entries;

    /// Adds a column and returns its index.
    std::int32_t addColumn(double lower, double upper, double cost, bool isInteger = false)
    {
        columnLower.push_back(lower);
        columnUpper.push_back(upper);
        objective.push_back(cost);
        integer.push_back(isInteger ? 1 : 0);
        return static_cast<std::int32_t>(objective.size() - 1);
    }
    /// Adds a row and returns its index.
    std::int32_t addRow(double lower, double upper)
    {
        rowLower.push_back(lower);
        rowUpper.push_back(upper);
        return static_cast<std::int32_t>(rowLower.size() - 1);
    }
    [[nodiscard]] std::size_t columnCount() const noexcept { return objective.size(); }
    [[nodiscard]] std::size_t rowCount() const noexcept { return rowLower.size(); }
};

/// What a solver found.
struct LinearProgramSolution {
    enum class Status : std::uint8_t { Optimal, TimeLimit, Infeasible, Failed };
    Status status = Status::Failed;
    /// The objective of the solution found (for an optimal solve, the optimum).
    double objective = 0;
    /// A proven lower bound on the optimum of the program as given (with its integer columns):
    /// the optimum when solved to optimality, the best bound branch and bound proved when it
    /// stopped at the time limit, -kInfinity when nothing is proven.
    double provenLowerBound = -LinearProgram::kInfinity;
    std::vector<double> values; // per column; empty when no solution
    double seconds = 0;         // wall time of the solve
    std::string message;        // the solver's words when not Optimal
};

struct LinearProgramLimits {
    double timeLimitSeconds = 0; // 0: none
    bool relaxIntegers = false;  // solve the linear relaxation even where columns are integer
};

/// A solver: importers/solver/coinsolver.h solveWithCoin() is the one the program uses.
using LinearProgramSolver = std::function<LinearProgramSolution(const LinearProgram&, const LinearProgramLimits&)>;

} // namespace fleet::model
