// SPDX-License-Identifier: Apache-2.0
#include "placeworkloaddialog.h"
#include "app/dialogs/fixedtextarea.h"

#include "app/controllers/offthreadrelease.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/storereaders.h"

#include "model/domainpath.h"
#include "model/placement/topologyplacement.h"
#include "model/topology.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <set>

namespace fleet::app {

namespace {

// The result's lines shown without scrolling: a refusal names the closest domain and why its
// nodes refused (three to four lines at the dialog's width).
constexpr int kMessageLines = 5;

/// The placement's own worker thread. Not QThreadPool::globalInstance(): Qt's raster paint
/// engine splits fills and image draws over that pool and waits for them on the GUI thread, so
/// a worker that holds one of its threads for seconds (2 on a 2-core machine) stalls every repaint
/// of the window (bench_placewindow measured 3.3 to 4.7 s with it). Made once, never destroyed:
/// quitting does not wait for a placement that runs.
QThreadPool* placementPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        p->setObjectName(QStringLiteral("placeWorkload"));
        return p;
    }();
    return pool;
}

QComboBox* levelCombo(QWidget* parent, const char* name)
{
    auto* c = new QComboBox(parent);
    c->setObjectName(QString::fromLatin1(name));
    c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return c;
}

} // namespace

PlaceWorkloadDialog::PlaceWorkloadDialog(QMainWindow* window, PlanController* plan)
    : QDialog(window)
    , m_plan(plan)
{
    setObjectName(QStringLiteral("placeWorkloadDialog"));
    setWindowTitle(tr("Place Workload"));
    // Non-modal, it stays open while the user works the map: a tool window, as a palette is, so
    // the main window's shortcuts (the Plan menu's, Ctrl+Alt+R) act while it has the keyboard
    // (Qt gives a tool window's key presses to its parent window's shortcuts). As a plain dialog
    // they did nothing until a click on the map; its own fields still take their editing keys.
    setWindowFlag(Qt::Tool);
    auto* column = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_pods = new QSpinBox(this);
    m_pods->setObjectName(QStringLiteral("placePods"));
    m_pods->setRange(0, 1000000);
    m_pods->setValue(8);
    form->addRow(tr("Pods:"), m_pods);

    m_shapeButton = new QRadioButton(tr("A shape"), this);
    m_shapeButton->setObjectName(QStringLiteral("placeShape"));
    m_templateButton = new QRadioButton(tr("A pod template file"), this);
    m_templateButton->setObjectName(QStringLiteral("placeTemplateButton"));
    m_shapeButton->setChecked(true);
    auto* kinds = new QHBoxLayout;
    kinds->addWidget(m_shapeButton);
    kinds->addWidget(m_templateButton);
    kinds->addStretch(1);
    form->addRow(tr("Each pod:"), kinds);
    m_cpu = new QLineEdit(QStringLiteral("8"), this);
    m_cpu->setObjectName(QStringLiteral("placeCpu"));
    m_cpu->setToolTip(tr("A Kubernetes quantity: 8, 500m"));
    m_memory = new QLineEdit(QStringLiteral("64Gi"), this);
    m_memory->setObjectName(QStringLiteral("placeMemory"));
    m_gpus = new QSpinBox(this);
    m_gpus->setObjectName(QStringLiteral("placeGpus"));
    m_gpus->setRange(0, 64);
    m_gpus->setToolTip(tr("nvidia.com/gpu per pod; the pods tolerate its taint (ExtendedResourceToleration)"));
    m_gpuModel = new QComboBox(this);
    m_gpuModel->setObjectName(QStringLiteral("placeGpuModel"));
    m_gpuModel->setEditable(true);
    form->addRow(tr("CPU:"), m_cpu);
    form->addRow(tr("Memory:"), m_memory);
    form->addRow(tr("GPUs:"), m_gpus);
    form->addRow(tr("GPU model:"), m_gpuModel);
    m_template = new QLineEdit(this);
    m_template->setObjectName(QStringLiteral("placeTemplate"));
    m_template->setPlaceholderText(tr("POD.json or POD.yaml: requests, tolerations, node selector, affinity"));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    auto* templateRow = new QHBoxLayout;
    templateRow->addWidget(m_template, 1);
    templateRow->addWidget(browse);
    form->addRow(tr("Pod template:"), templateRow);
    m_namespace = new QLineEdit(this);
    m_namespace->setObjectName(QStringLiteral("placeNamespace"));
    m_namespace->setPlaceholderText(tr("the template's, else default"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("placeName"));
    m_name->setPlaceholderText(tr("placed (placed2, \u2026 when taken)"));
    form->addRow(tr("Namespace:"), m_namespace);
    form->addRow(tr("Name:"), m_name);
    m_gang = new QCheckBox(tr("A gang: all pods or none"), this);
    m_gang->setObjectName(QStringLiteral("placeGang"));
    m_gang->setChecked(true);
    form->addRow(QString(), m_gang);
    m_required = levelCombo(this, "placeRequiredLevel");
    m_preferred = levelCombo(this, "placePreferredLevel");
    form->addRow(tr("Required level:"), m_required);
    form->addRow(tr("Preferred level:"), m_preferred);
    m_sliceSize = new QSpinBox(this);
    m_sliceSize->setObjectName(QStringLiteral("placeSliceSize"));
    m_sliceSize->setRange(0, 1000000);
    m_sliceSize->setSpecialValueText(tr("no slices"));
    m_sliceLevel = levelCombo(this, "placeSliceLevel");
    auto* sliceRow = new QHBoxLayout;
    sliceRow->addWidget(m_sliceSize);
    sliceRow->addWidget(new QLabel(tr("pods per domain of"), this));
    sliceRow->addWidget(m_sliceLevel, 1);
    form->addRow(tr("Slices:"), sliceRow);
    m_domain = new QLineEdit(this);
    m_domain->setObjectName(QStringLiteral("placeDomain"));
    m_domain->setPlaceholderText(tr("anywhere in the cluster"));
    m_domain->setToolTip(tr("A topology domain path (label=value steps joined by /): only its nodes take the pods"));
    form->addRow(tr("Within domain:"), m_domain);
    column->addLayout(form);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("placeMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMinimumWidth(560);
    // A fixed place for the result, and the progress bar's kept while hidden: the buttons
    // under them never move (a click on Close that landed on Place placed the workload again).
    column->addWidget(fixedTextArea(m_message, kMessageLines, this));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("placeProgress"));
    m_progress->setRange(0, static_cast<int>(PlaceStage::Count));
    m_progress->setTextVisible(true);
    QSizePolicy progressPolicy = m_progress->sizePolicy();
    progressPolicy.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(progressPolicy);
    m_progress->hide();
    column->addWidget(m_progress);
    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100); // progress at most ten times a second
    connect(m_progressTimer, &QTimer::timeout, this, &PlaceWorkloadDialog::showStage);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_placeButton = buttons->addButton(tr("Place"), QDialogButtonBox::ApplyRole);
    m_placeButton->setObjectName(QStringLiteral("placePlace"));
    m_placeButton->setDefault(true);
    m_cancelButton = buttons->addButton(tr("Cancel Placement"), QDialogButtonBox::ActionRole);
    m_cancelButton->setObjectName(QStringLiteral("placeCancel"));
    m_cancelButton->setEnabled(false);
    connect(m_cancelButton, &QPushButton::clicked, this, &PlaceWorkloadDialog::cancel);
    column->addWidget(buttons);

    auto kindChanged = [this] {
        const bool shape = m_shapeButton->isChecked();
        for (QWidget* w : std::initializer_list<QWidget*> { m_cpu, m_memory, m_gpus, m_gpuModel })
            w->setEnabled(shape);
        m_template->setEnabled(!shape);
    };
    connect(m_shapeButton, &QRadioButton::toggled, this, kindChanged);
    kindChanged();
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Pod Template"), QString(), tr("Pod objects (*.json *.yaml *.yml)"));
        if (!path.isEmpty())
            setPodTemplate(path);
    });
    // Place is the one default: Enter places, whichever button has the focus. A dialog's push
    // buttons are auto-default, and the focused one takes Enter: Place disabled while it runs
    // passed the focus on (to Cancel Placement, then Close), so Enter closed the dialog on the
    // next use.
    for (QPushButton* b : findChildren<QPushButton*>())
        if (b != m_placeButton)
            b->setAutoDefault(false);
    connect(m_placeButton, &QPushButton::clicked, this, [this] { place(); });
    connect(buttons, &QDialogButtonBox::rejected, this, [this] {
        cancel(); // closing the dialog stops its placement
        reject();
    });
    connect(plan, &PlanController::engineReady, this, [this] {
        cancel(); // a new cluster: drop a running placement
        if (isVisible())
            close();
    });
    connect(plan, &PlanController::planChanged, this, [this] { ++m_planRevision; });
    connect(plan, &PlanController::placeWorkloadRequested, this, [this](model::DomainId d) { openFor(d); });

    QAction* action = planMenu(window)->addAction(tr("&Place Workload\u2026"), this, [this] { openFor(); });
    action->setObjectName(QStringLiteral("actionPlaceWorkload"));
    action->setStatusTip(tr("Place N new pods in the network topology (Kueue Topology Aware Scheduling), a gang all or nothing"));
}

PlaceWorkloadDialog::~PlaceWorkloadDialog() = default;

void PlaceWorkloadDialog::fillLevels()
{
    QStringList keys;
    const auto engine = m_plan->engine();
    const auto topology = m_plan->topology();
    if (engine && topology) {
        model::TopologyRequest clique; // asks for the clique label too: listed where some node carries it
        clique.sliceLevel = "nvidia.com/gpu.clique";
        for (const std::string& k : model::topologyPlacementLevels(engine->state(), *topology, clique))
            keys << QString::fromStdString(k);
    }
    for (QComboBox* c : { m_required, m_preferred, m_sliceLevel }) {
        const QString current = c->currentData().toString();
        const QSignalBlocker block(c);
        c->clear();
        c->addItem(tr("(none)"), QString());
        for (const QString& k : keys)
            c->addItem(k, k);
        c->setCurrentIndex(std::max(0, c->findData(current)));
    }
    const QString chosen = m_gpuModel->currentText();
    m_gpuModel->clear();
    m_gpuModel->addItem(QString());
    if (const auto store = m_plan->store()) {
        std::set<std::string> models;
        for (std::uint32_t i = 0; i < store->nodeCount(); ++i)
            if (const std::string_view m = store->nodeGpuModel(model::NodeId(i)); !m.empty())
                models.emplace(m);
        for (const std::string& m : models)
            m_gpuModel->addItem(QString::fromStdString(m));
    }
    m_gpuModel->setCurrentText(chosen);
}

void PlaceWorkloadDialog::openFor(model::DomainId domain)
{
    fillLevels();
    clearMarks();
    m_message->clear();
    const auto topology = m_plan->topology();
    if (topology && domain.isValid() && domain != topology->root()) {
        setDomainPath(QString::fromStdString(model::domainPathText(*topology, domain)));
        setRequiredLevel(QString::fromStdString(model::levelUserKey(*topology, topology->domainLevel(domain))));
        setPreferredLevel({});
    } else {
        setDomainPath({}); // the Plan menu: anywhere
    }
    show();
    raise();
}

void PlaceWorkloadDialog::setPods(int pods) { m_pods->setValue(pods); }

void PlaceWorkloadDialog::setShape(const QString& cpu, const QString& memory, int gpus, const QString& gpuModel)
{
    m_shapeButton->setChecked(true);
    m_cpu->setText(cpu);
    m_memory->setText(memory);
    m_gpus->setValue(gpus);
    m_gpuModel->setCurrentText(gpuModel);
}

void PlaceWorkloadDialog::setPodTemplate(const QString& path)
{
    m_templateButton->setChecked(true);
    m_template->setText(path);
}

void PlaceWorkloadDialog::setName(const QString& name) { m_name->setText(name); }
void PlaceWorkloadDialog::setGang(bool gang) { m_gang->setChecked(gang); }

namespace {
bool selectKey(QComboBox* c, const QString& key)
{
    const int i = c->findData(key);
    if (i < 0)
        return false;
    c->setCurrentIndex(i);
    return true;
}
} // namespace

bool PlaceWorkloadDialog::setRequiredLevel(const QString& key) { return selectKey(m_required, key); }
bool PlaceWorkloadDialog::setPreferredLevel(const QString& key) { return selectKey(m_preferred, key); }

bool PlaceWorkloadDialog::setSlices(int size, const QString& level)
{
    m_sliceSize->setValue(size);
    return selectKey(m_sliceLevel, level);
}

void PlaceWorkloadDialog::setDomainPath(const QString& path) { m_domain->setText(path); }
QString PlaceWorkloadDialog::domainPath() const { return m_domain->text(); }
QString PlaceWorkloadDialog::requiredLevel() const { return m_required->currentData().toString(); }

QStringList PlaceWorkloadDialog::levels() const
{
    QStringList out;
    for (int i = 1; i < m_required->count(); ++i)
        out << m_required->itemData(i).toString();
    return out;
}

QString PlaceWorkloadDialog::messageText() const { return m_message->text(); }

QWidget* PlaceWorkloadDialog::fieldWidget(PlaceField field) const
{
    switch (field) {
    case PlaceField::Pods:
        return m_pods;
    case PlaceField::Shape:
    case PlaceField::Cpu:
        return m_cpu;
    case PlaceField::Memory:
        return m_memory;
    case PlaceField::Gpu:
        return m_gpus;
    case PlaceField::GpuModel:
        return m_gpuModel;
    case PlaceField::PodTemplate:
        return m_template;
    case PlaceField::Namespace:
        return m_namespace;
    case PlaceField::Name:
        return m_name;
    case PlaceField::Levels:
        return m_required;
    case PlaceField::SliceSize:
        return m_sliceSize;
    case PlaceField::SliceLevel:
        return m_sliceLevel;
    case PlaceField::Domain:
        return m_domain;
    }
    return nullptr;
}

QString PlaceWorkloadDialog::fieldLabel(PlaceField field) const
{
    switch (field) {
    case PlaceField::Pods:
        return tr("Pods");
    case PlaceField::Shape:
    case PlaceField::Cpu:
        return tr("CPU");
    case PlaceField::Memory:
        return tr("Memory");
    case PlaceField::Gpu:
        return tr("GPUs");
    case PlaceField::GpuModel:
        return tr("GPU model");
    case PlaceField::PodTemplate:
        return tr("Pod template");
    case PlaceField::Namespace:
        return tr("Namespace");
    case PlaceField::Name:
        return tr("Name");
    case PlaceField::Levels:
        return tr("Required level");
    case PlaceField::SliceSize:
        return tr("Slices");
    case PlaceField::SliceLevel:
        return tr("Slice level");
    case PlaceField::Domain:
        return tr("Within domain");
    }
    return {};
}

void PlaceWorkloadDialog::clearMarks()
{
    for (int f = 0; f <= static_cast<int>(PlaceField::Domain); ++f)
        if (QWidget* w = fieldWidget(static_cast<PlaceField>(f)))
            w->setStyleSheet(QString());
}

void PlaceWorkloadDialog::showError(PlaceField field, const QString& message)
{
    clearMarks();
    QWidget* w = fieldWidget(field);
    w->setStyleSheet(QStringLiteral("border: 2px solid #d03030;"));
    w->setFocus();
    setMessage(tr("%1: %2").arg(fieldLabel(field), message), true);
}

/// place()'s request and the plan's actions copied so far, for the worker to replay (the engine
/// changes on the GUI thread meanwhile, so the worker cannot read it). Moved into the worker
/// once whole: a second copy into its closure doubled the GUI thread's time.
struct PlaceWorkloadDialog::PlanCopy {
    PlaceRequestInput input;
    std::string gpuLabel;
    std::uint64_t generation = 0; // m_generation when place() started it
    std::weak_ptr<const model::PlanEngine> engine; // the engine copied from
    std::uint64_t revision = 0;   // m_planRevision when the copy (re)started
    std::vector<model::PlanAction> actions;
};

bool PlaceWorkloadDialog::place()
{
    const auto engine = m_plan->engine();
    const auto store = m_plan->store();
    const auto topology = m_plan->topology();
    if (m_running || !engine || !store || !topology)
        return false;
    PlaceRequestInput input;
    input.pods = m_pods->value();
    if (m_shapeButton->isChecked()) {
        input.cpu = m_cpu->text().trimmed().toStdString();
        input.memory = m_memory->text().trimmed().toStdString();
        input.gpus = m_gpus->value();
        input.gpuModel = m_gpuModel->currentText().trimmed().toStdString();
        if (input.cpu.empty() && input.memory.empty()) {
            showError(PlaceField::Cpu, tr("a pod shape needs both a cpu and a memory quantity"));
            return false;
        }
    } else {
        input.podTemplatePath = m_template->text().trimmed().toStdString();
        if (input.podTemplatePath.empty()) {
            showError(PlaceField::PodTemplate, tr("choose a Pod object file (JSON or YAML)"));
            return false;
        }
    }
    input.namespaceName = m_namespace->text().trimmed().toStdString();
    input.name = m_name->text().trimmed().toStdString();
    input.gang = m_gang->isChecked();
    input.requiredLevel = m_required->currentData().toString().toStdString();
    input.preferredLevel = m_preferred->currentData().toString().toStdString();
    input.sliceSize = m_sliceSize->value();
    input.sliceLevel = m_sliceLevel->currentData().toString().toStdString();
    if (const QString path = m_domain->text().trimmed(); !path.isEmpty()) {
        try {
            const auto steps = model::parseDomainPath(path.toStdString());
            (void)model::findDomainByPath(*topology, steps);
            for (const auto& [key, value] : steps) // a trace's pseudo levels (gpu-model) are no node labels
                if (!store->strings().find(key).isValid())
                    throw std::invalid_argument("\"" + key + "\" is not a node label: a node selector cannot name it");
            input.withinDomain = steps;
        } catch (const std::exception& e) {
            showError(PlaceField::Domain, QString::fromStdString(e.what()));
            return false;
        }
    }
    const std::string gpuLabel = gpuModelLabelOf(*store);
    try {
        (void)placePodsAction(input, gpuLabel); // the fields' rules now, before the worker
    } catch (const PlaceRequestError& e) {
        showError(e.field(), QString::fromStdString(e.what()));
        return false;
    }
    clearMarks();
    setMessage(tr("Placing %1 pods\u2026").arg(input.pods), false);
    m_work = std::make_shared<PlaceProgress>();
    setRunning(true);
    auto copy = std::make_shared<PlanCopy>();
    copy->input = std::move(input);
    copy->gpuLabel = gpuLabel;
    copy->generation = ++m_generation;
    m_copy = std::move(copy);
    copyPlanSlice();
    return true;
}

void PlaceWorkloadDialog::copyPlanSlice()
{
    if (!m_copy || m_copy->generation != m_generation) {
        m_copy.reset(); // cancelled, or a newer placement
        return;
    }
    PlanCopy& copy = *m_copy;
    const std::shared_ptr<const model::PlanEngine> engine = m_plan->engine();
    if (!engine) {
        m_copy.reset();
        cancel();
        setMessage(tr("The what-if is not ready; place again in a moment."), true);
        return;
    }
    // A change of the plan (a step undone or redone in slices changes the engine before it says
    // so; another engine is another plan) starts the copy again.
    if (engine != copy.engine.lock() || copy.revision != m_planRevision || m_plan->isBusy() || engine->applied().size() < copy.actions.size()) {
        copy.actions.clear();
        copy.engine = engine;
        copy.revision = m_planRevision;
        if (m_plan->isBusy()) {
            QTimer::singleShot(1, Qt::PreciseTimer, this, &PlaceWorkloadDialog::copyPlanSlice);
            return;
        }
        copy.actions.reserve(engine->applied().size());
    }
    const auto& applied = engine->applied();
    QElapsedTimer clock;
    clock.start();
    for (int n = 0; copy.actions.size() < applied.size(); ++n) {
        if (m_maxCopyPerSlice > 0 ? n >= m_maxCopyPerSlice : n > 0 && n % 256 == 0 && clock.elapsed() >= kCopySliceMs)
            break;
        copy.actions.push_back(applied[copy.actions.size()].action);
    }
    emit planCopyProgressed(static_cast<int>(copy.actions.size()), static_cast<int>(applied.size()));
    if (!m_copy || m_copy->generation != m_generation)
        return; // a slot cancelled it
    if (copy.actions.size() < applied.size()) {
        // A timer, not a posted call: the loop turns (input, repaints) between two slices.
        QTimer::singleShot(1, Qt::PreciseTimer, this, &PlaceWorkloadDialog::copyPlanSlice);
        return;
    }
    std::shared_ptr<PlanCopy> whole = std::exchange(m_copy, nullptr);
    m_replayedRevision = whole->revision;
    const std::uint64_t generation = whole->generation;
    QPointer<PlaceWorkloadDialog> self(this);
    auto reading = std::make_shared<StoreReadGuard>(m_plan->storeReaders(), m_plan->shownStore()); // a live batch waits for this worker
    (void)QtConcurrent::run(placementPool(),
        [self, generation, store = m_plan->store(), topology = m_plan->topology(), prices = m_plan->nodePrices(), whole = std::move(whole), reading,
            work = m_work, added = m_addedTemplates] {
            auto result = runPlacement(store, topology, prices, std::move(whole->actions), whole->input, whole->gpuLabel, *work, added);
            QMetaObject::invokeMethod(
                self, [self, generation, result] { if (self) self->onResult(generation, result); }, Qt::QueuedConnection);
        });
}

void PlaceWorkloadDialog::setMessage(const QString& text, bool error)
{
    m_message->setStyleSheet(error ? QStringLiteral("color: #b02020;") : QString());
    m_message->setText(text);
    if (isVisible())
        adjustSize(); // a wrapped explanation of several lines gets its height
}

void PlaceWorkloadDialog::setRunning(bool running)
{
    m_running = running;
    m_placeButton->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    m_progress->setVisible(running);
    if (running) {
        showStage();
        m_progressTimer->start();
    } else {
        m_progressTimer->stop();
        m_work.reset();
    }
}

int PlaceWorkloadDialog::progressValue() const { return m_progress->value(); }
QString PlaceWorkloadDialog::progressText() const { return m_progress->format(); }

void PlaceWorkloadDialog::showStage()
{
    const auto stage = static_cast<PlaceStage>(m_work ? m_work->stage.load(std::memory_order_relaxed) : 0);
    QString text;
    switch (stage) {
    case PlaceStage::None:
    case PlaceStage::Count:
        text = tr("Starting\u2026");
        break;
    case PlaceStage::Copy:
        text = tr("Copying the cluster with the template pod\u2026");
        break;
    case PlaceStage::Engine:
        text = tr("Building the plan's ledger\u2026");
        break;
    case PlaceStage::Replay:
        text = tr("Replaying the plan\u2026");
        break;
    case PlaceStage::Place:
        text = tr("Placing in the topology\u2026");
        break;
    }
    m_progress->setValue(static_cast<int>(stage));
    m_progress->setFormat(text);
}

void PlaceWorkloadDialog::cancel()
{
    if (!m_running)
        return;
    if (m_work)
        m_work->cancel.store(true, std::memory_order_relaxed);
    ++m_generation; // the worker's result, when it comes, is dropped
    setRunning(false);
    m_outcome = PlaceWorkloadOutcome {};
    m_outcome.cancelled = true;
    setMessage(tr("Placement cancelled; the plan is unchanged."), false);
    emit finished(false);
}

void PlaceWorkloadDialog::onResult(std::uint64_t generation, std::shared_ptr<PlaceWorkerResult> result)
{
    // The result is freed on a worker however this ends: a store's copy and its engine not taken,
    // or the replayed plan (26,516 actions: 5 to 10 ms to free here).
    struct ReleaseOffGuiThread {
        std::shared_ptr<PlaceWorkerResult>& result;
        ~ReleaseOffGuiThread() { releaseOffGuiThread(std::move(result)); }
    } release { result };
    if (generation != m_generation)
        return; // a newer cluster or placement, or cancelled
    setRunning(false);
    m_outcome = result->outcome;
    PlaceWorkloadOutcome& o = m_outcome;
    if (!o.error.isEmpty()) {
        if (o.fieldError) {
            showError(o.errorField, o.error);
        } else {
            setMessage(o.error, true);
        }
        emit finished(false);
        return;
    }
    QStringList lines;
    const QString who = QString::fromStdString(result->templateName);
    if (o.placed) {
        QElapsedTimer clock;
        clock.start();
        // The plan is still the one the worker replayed: no change of it since the copy
        // (planChanged() counts them; a step running in slices changes it before it says so).
        // A comparison of every action took about 10 ms at 199,262 actions.
        // Read through the controller, not held here: this function's copy of the shown engine was
        // its last reference once adoptPlacement() replaced it, and a 200,000-action engine took
        // about 450 ms of the GUI thread to free at the end of this call.
        const bool unchanged = m_plan->engine() && m_replayedRevision == m_planRevision && !m_plan->isBusy()
            && m_plan->engine()->applied().size() == result->replayed.size();
        const QString where = o.domains.size() == 1 ? QString::fromStdString(o.domains.front()) : tr("%1 domains").arg(o.domains.size());
        if (!unchanged || !m_plan->adoptPlacement(result->store, result->engine, result->appliedBefore,
                tr("Place %1 pods like %2 in %3").arg(o.podsPlaced).arg(who, where), result->marks)) {
            o.placed = false;
            setMessage(tr("The plan changed while the placement ran; place again."), true);
            emit finished(false);
            return;
        }
        o.guiApplyMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        m_addedTemplates[result->templateName] = result->templateJson;
        lines << tr("Placed %1 of %2 pods like %3 at level %4 in %5. Undo removes them in one step.")
                     .arg(o.podsPlaced)
                     .arg(o.pods)
                     .arg(who, QString::fromStdString(o.level), where);
    } else {
        lines << tr("The %1 pods like %2 do not fit%3. Per level, the domain that came closest and what it lacks:")
                     .arg(o.pods)
                     .arg(who, m_gang->isChecked() ? tr(" (a gang: all or nothing; nothing placed)") : QString());
    }
    for (const model::Reason& r : o.reasons)
        lines << QStringLiteral("\u2022 %1 (%2)").arg(QString::fromStdString(r.message), QString::fromStdString(r.code()));
    // The timings are for the benchmark (lastOutcome()), not the user's sentence.
    setMessage(lines.join(QLatin1Char('\n')), !o.placed);
    emit finished(o.placed);
}

} // namespace fleet::app
