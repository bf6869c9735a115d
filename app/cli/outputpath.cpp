// SPDX-License-Identifier: Apache-2.0
#include "outputpath.h"

#include "importers/terminaltext.h"

#include <QCommandLineParser>

namespace fleet::app {

std::vector<std::string> commandInputPaths(const QCommandLineParser& parser)
{
    std::vector<std::string> inputs;
    for (const QString& file : parser.positionalArguments())
        inputs.push_back(file.toStdString());
    // optionNames(): the options given, so that an option this command lacks is not asked for.
    const QStringList given = parser.optionNames();
    for (const char* name : { "plan", "prices", "node-groups", "pod-template", "kubeconfig", "usage-config",
             "prometheus-token-file", "prometheus-ca" }) {
        const QString option = QString::fromLatin1(name);
        if (given.contains(option))
            for (const QString& value : parser.values(option))
                inputs.push_back(value.toStdString());
    }
    return inputs;
}

importers::OutputFileOptions commandOutputOptions(const QCommandLineParser& parser, bool executable, bool allowStandardOutput)
{
    importers::OutputFileOptions options;
    options.inputs = commandInputPaths(parser);
    options.executable = executable;
    options.allowStandardOutput = allowStandardOutput;
    return options;
}

std::string outputTargetProblem(
    const std::string& option, const std::string& path, const importers::OutputFileOptions& options)
{
    if (path == "-" && !options.allowStandardOutput)
        return option + " -: standard output carries this command's report; give a file name";
    try {
        importers::checkOutputTarget(path, options);
    } catch (const importers::OutputFileError& e) {
        return option + ": " + importers::messageText(e);
    }
    return {};
}

} // namespace fleet::app
