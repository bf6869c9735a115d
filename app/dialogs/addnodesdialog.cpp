// SPDX-License-Identifier: Apache-2.0
#include "addnodesdialog.h"
#include "app/dialogs/fixedtextarea.h"

#include "app/controllers/longjob.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/storereaders.h"

#include "model/plan/addnodetemplate.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/pricing/pricetable.h"
#include "model/plan/evictionrules.h"
#include "views/map/fleetmapview.h"
#include "views/plan/planactionsmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <map>
#include <optional>
#include <stdexcept>

namespace fleet::app {

namespace {

// The lines the template's note and the answer have without scrolling: the note names the
// node copied and its domain path, and says when it lies outside the domain (three lines); an
// answer gives the count, the pods placed and why the rest were not.
constexpr int kTemplateNoteLines = 3;
constexpr int kAnswerLines = 4;

QString qs(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

/// The node add-node would copy among `ofType` (the nodes of one instance type) bought as
/// `capacity` ("" any): the engine's rule (model::templateNodeFor: a healthy node, of the node
/// group the most of `pending` can use), shown with its figures and price (`pending` empty:
/// health alone) and named in the answer (`pending` the store's pending pods: on the worker).
model::NodeId templateNode(const model::ClusterStore& store, const std::vector<model::NodeId>& ofType, const QString& capacity,
    std::span<const model::PodId> pending = {})
{
    if (capacity.isEmpty())
        return model::templateNodeFor(store, ofType, pending);
    const std::optional<model::CapacityType> wanted = model::capacityTypeFromName(capacity.toStdString());
    std::vector<model::NodeId> bought;
    for (const model::NodeId n : ofType)
        if (!wanted || model::nodeCapacityType(store, n) == *wanted)
            bought.push_back(n);
    return model::templateNodeFor(store, bought, pending);
}

/// The nodes of instance type `type` in `store` (the worker's copy of nodesOfType()).
std::vector<model::NodeId> nodesOf(const model::ClusterStore& store, const std::string& type)
{
    std::vector<model::NodeId> out;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
        if (store.nodeInstanceType(model::NodeId(i)) == type)
            out.push_back(model::NodeId(i));
    return out;
}

/// Progress of a worker's step that spans `from`..`to` of the job (0..1), on its token.
std::function<void(double)> progressBetween(LongJobToken& token, double from, double to)
{
    return [&token, from, to](double f) { token.setProgress(from + f * (to - from)); };
}

} // namespace

/// How Many?'s outcome (on a worker): the answer, or the error (answer null).
struct AddNodesDialog::Counted {
    std::shared_ptr<model::NodesNeededAnswer> answer;
    model::NodeId copied;
    std::vector<model::TemplateCopies> copies;
    QString error;
};

/// Add's outcome (on a worker): the engine with the step applied, or the error (engine null).
struct AddNodesDialog::Placed {
    std::shared_ptr<model::PlanEngine> engine;
    std::size_t appliedBefore = 0;
    int placed = 0;
    QString error;
    PlanController::PreparedStep prepared;
};

AddNodesDialog::AddNodesDialog(QMainWindow* window, PlanController* plan, views::FleetMapView* map)
    : QDialog(window)
    , m_plan(plan)
    , m_map(map)
    , m_job(new LongJob(this, { QStringLiteral("addNodesProgress"), tr("Add Nodes"), kProgressAfterMs, 100, nullptr }, this))
{
    setObjectName(QStringLiteral("addNodesDialog"));
    setWindowTitle(tr("Add Nodes"));
    auto* column = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_type = new QComboBox(this);
    m_type->setObjectName(QStringLiteral("addNodesType"));
    m_capacity = new QComboBox(this);
    m_capacity->setObjectName(QStringLiteral("addNodesCapacityType"));
    m_domain = new QLineEdit(this);
    m_domain->setObjectName(QStringLiteral("addNodesDomain"));
    m_domain->setPlaceholderText(tr("the whole cluster"));
    m_domain->setToolTip(tr("A topology domain path, label=value steps joined by /, e.g. topology.kubernetes.io/zone=us-east-1a"));
    m_count = new QSpinBox(this);
    m_count->setObjectName(QStringLiteral("addNodesCount"));
    m_count->setRange(1, 100000);
    form->addRow(tr("Instance type:"), m_type);
    form->addRow(tr("Capacity type:"), m_capacity);
    form->addRow(tr("Domain:"), m_domain);
    form->addRow(tr("Count:"), m_count);
    column->addLayout(form);

    auto* note = new QLabel(tr("Each node copies a node of this type in the cluster (its allocatable, taints and price)."), this);
    note->setWordWrap(true);
    column->addWidget(note);
    m_templateNote = new QLabel(this);
    m_templateNote->setObjectName(QStringLiteral("addNodesTemplate"));
    m_templateNote->setWordWrap(true);
    m_templateNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The template's note and the answer in places of a fixed height: a note that grew with
    // another instance type moved How Many? down, under a click that then chose a radio button.
    column->addWidget(fixedTextArea(m_templateNote, kTemplateNoteLines, this));
    m_pending = new QRadioButton(tr("The pending pods"), this);
    m_workloadButton = new QRadioButton(tr("A workload"), this);
    m_pending->setChecked(true);
    column->addWidget(new QLabel(tr("How many nodes would it take to place:"), this));
    column->addWidget(m_pending);
    column->addWidget(m_workloadButton);
    m_compute = new QPushButton(tr("&How Many?"), this); // Alt+H from the keyboard
    m_compute->setObjectName(QStringLiteral("addNodesCompute"));
    column->addWidget(m_compute, 0, Qt::AlignLeft);
    m_answerLabel = new QLabel(this);
    m_answerLabel->setObjectName(QStringLiteral("addNodesAnswer"));
    m_answerLabel->setWordWrap(true);
    m_answerLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(fixedTextArea(m_answerLabel, kAnswerLines, this));
    m_place = new QCheckBox(tr("Place the pods on them (as How Many? counts them)"), this);
    m_place->setObjectName(QStringLiteral("addNodesPlacePods"));
    m_place->setToolTip(tr("Adds a move-pod for each pending pod that fits (or places the workload), as a scheduler would "
                           "bind them; unchecked, the added nodes stay empty"));
    m_place->setChecked(true);
    column->addWidget(m_place);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* add = buttons->addButton(tr("&Add"), QDialogButtonBox::AcceptRole);
    add->setObjectName(QStringLiteral("addNodesAdd"));
    column->addWidget(buttons);

    connect(m_type, &QComboBox::currentIndexChanged, this, [this] {
        fillCapacityTypes();
        clearAnswer();
    });
    connect(m_capacity, &QComboBox::currentIndexChanged, this, [this] {
        updateTemplateNote();
        clearAnswer();
    });
    connect(m_domain, &QLineEdit::textChanged, this, [this] { fillCapacityTypes(); }); // the template is the domain's
    connect(m_domain, &QLineEdit::textEdited, this, [this] { clearAnswer(); });
    connect(m_pending, &QRadioButton::toggled, this, [this] { clearAnswer(); });
    connect(m_compute, &QPushButton::clicked, this, [this] { computeCount(); });
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { addNodes(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_job, &LongJob::progressed, this, &AddNodesDialog::progressed);
    // Cancel stops and drops a How Many? or Add still running.
    connect(this, &QDialog::rejected, this, &AddNodesDialog::dropRunning);
    connect(plan, &PlanController::engineReady, this, [this] {
        dropRunning(); // a new cluster: stop and drop a running answer
        if (isVisible())
            close();
    });

    QAction* action = planMenu(window)->addAction(tr("&Add Nodes…"), this, [this] { openForCluster(); });
    action->setObjectName(QStringLiteral("actionAddNodes"));
    action->setStatusTip(tr("Add nodes of an instance type to the plan, and ask how many the pending pods would take"));
}

AddNodesDialog::~AddNodesDialog() = default; // the LongJob cancels a running How Many? or Add

void AddNodesDialog::cancel()
{
    m_job->cancel();
}

bool AddNodesDialog::isRunning() const noexcept
{
    return m_job->isRunning();
}

QProgressDialog* AddNodesDialog::progressDialog() const noexcept
{
    return m_job->dialog();
}

void AddNodesDialog::dropRunning()
{
    if (!m_job->isRunning())
        return;
    m_job->drop();
    m_compute->setEnabled(true);
}

const std::vector<model::NodeId>& AddNodesDialog::nodesOfType(const std::string& type) const
{
    static const std::vector<model::NodeId> none;
    const auto it = m_types.find(type);
    return it == m_types.end() ? none : it->second;
}

model::NodeId AddNodesDialog::copiedTemplate(const std::string& type, const QString& capacity) const
{
    const auto store = m_plan->store();
    const auto topology = m_plan->topology();
    const auto engine = m_plan->engine();
    if (!store || !topology)
        return {};
    // The pods still waiting under the plan so far, as the engine counts them.
    std::vector<model::PodId> pending = m_pendingPods;
    if (engine)
        std::erase_if(pending, [&](model::PodId p) {
            const model::NodeId on = engine->state().podNode(p);
            return on.isValid() && engine->state().nodePresent(on);
        });
    const std::vector<model::NodeId>& ofType = nodesOfType(type);
    const model::DomainId d = resolveDomain(nullptr);
    if (d.isValid() && d != topology->root()) {
        std::vector<model::NodeId> inside;
        for (const model::NodeId n : topology->domainNodes(d))
            if (store->nodeInstanceType(n) == type)
                inside.push_back(n);
        if (const model::NodeId n = templateNode(*store, inside, capacity, pending); n.isValid())
            return n;
    }
    // The engine tries the cluster in layout order; ties go to the first.
    std::vector<model::NodeId> ordered;
    ordered.reserve(ofType.size());
    for (const model::NodeId n : topology->orderedNodes())
        if (store->nodeInstanceType(n) == type)
            ordered.push_back(n);
    return templateNode(*store, ordered, capacity, pending);
}

void AddNodesDialog::openForCluster()
{
    fillTypes();
    const auto store = m_plan->store();
    const auto topology = m_plan->topology();
    m_domain->clear();
    m_workload = {};
    const model::NodeId selected = m_map->selectedNode();
    if (store && topology && selected.isValid() && selected.index() < store->nodeCount()) {
        const model::DomainId d = topology->nodeDomain(selected);
        if (d.isValid() && d != topology->root())
            m_domain->setText(QString::fromStdString(model::domainPathText(*topology, d)));
        setInstanceType(qs(store->nodeInstanceType(selected)));
        for (const model::PodId p : store->nodePods(selected))
            if (!model::staysOnDrainedNode(*store, p) && store->podWorkload(p).isValid()) {
                m_workload = store->podWorkload(p);
                break;
            }
    }
    // No node selected: the type that serves the most pending demand (GPUs first), not the
    // first of the list, which a CPU-only type can be.
    if (!(store && selected.isValid() && selected.index() < store->nodeCount()) && !m_pendingType.isEmpty())
        setInstanceType(m_pendingType);
    setWorkload(m_workload);
    m_pending->setChecked(true); // the question of the seeds; the workload is the other choice
    // Counted on the worker by How Many? (O(pods): 2,000,000 at 100,000 nodes).
    m_pending->setText(tr("The pending pods"));
    m_answerLabel->clear();
    m_answer = {};
    m_place->setChecked(true); // the pods placed on the nodes unless asked otherwise, each time
    open();
}

void AddNodesDialog::fillTypes()
{
    m_type->clear();
    const auto store = m_plan->store();
    if (!store)
        return;
    if (m_typesOf.lock() != store) { // one pass over the nodes per cluster, not one per type
        m_types.clear();
        std::string_view last;
        std::vector<model::NodeId>* group = nullptr;
        for (std::uint32_t i = 0; i < store->nodeCount(); ++i) {
            const std::string_view t = store->nodeInstanceType(model::NodeId(i));
            if (t.empty())
                continue;
            if (!group || t != last) {
                group = &m_types[std::string(t)];
                last = t;
            }
            group->push_back(model::NodeId(i));
        }
        m_pendingPods = model::storePendingPods(*store);
        m_pendingType = qs(model::instanceTypeForPending(*store, m_pendingPods));
        m_typesOf = store;
    }
    for (const auto& [type, nodes] : m_types) { // sorted by name
        const model::NodeId n = templateNode(*store, nodes, {});
        const model::ResourceVector& alloc = store->nodeAllocatable(n);
        QString text = qs(type) + QStringLiteral(" \u2014 ");
        if (store->nodeGpuCount(n) > 0)
            text += tr("%1 \u00d7 %2 GPU, ").arg(store->nodeGpuCount(n)).arg(qs(store->nodeGpuModel(n)));
        text += tr("%1 CPU, %2 memory allocatable")
                    .arg(qs(model::formatCpuMillicores(alloc[model::CoreResource::Cpu])), qs(model::formatBytes(alloc[model::CoreResource::Memory])));
        m_type->addItem(text, qs(type));
    }
    fillCapacityTypes();
}

void AddNodesDialog::fillCapacityTypes()
{
    const auto store = m_plan->store();
    const QString type = m_type->currentData().toString();
    const QString current = m_capacity->currentData().toString();
    const QSignalBlocker block(m_capacity);
    m_capacity->clear();
    if (!store || type.isEmpty())
        return;
    const std::vector<double>& prices = m_plan->nodePrices();
    auto priced = [&](const QString& label, const QString& capacity) {
        const model::NodeId n = copiedTemplate(type.toStdString(), capacity);
        if (!n.isValid())
            return;
        QString text = label;
        if (n.index() < prices.size() && prices[n.index()] > 0)
            text += tr(" \u2014 $%1/h").arg(prices[n.index()], 0, 'f', 2);
        m_capacity->addItem(text, capacity);
    };
    priced(tr("any (a healthy node of the node group most pending pods can use)"), QString());
    for (const model::CapacityType c : { model::CapacityType::OnDemand, model::CapacityType::Spot, model::CapacityType::Reserved })
        priced(qs(model::capacityTypeName(c)), qs(model::capacityTypeName(c)));
    const int keep = m_capacity->findData(current);
    m_capacity->setCurrentIndex(keep >= 0 ? keep : 0);
    updateTemplateNote();
}

void AddNodesDialog::updateTemplateNote()
{
    const auto store = m_plan->store();
    const auto topology = m_plan->topology();
    const QString type = m_type->currentData().toString();
    const model::NodeId n = store && topology && !type.isEmpty() ? copiedTemplate(type.toStdString(), m_capacity->currentData().toString())
                                                                : model::NodeId();
    if (!n.isValid()) {
        m_templateNote->clear();
        return;
    }
    // The copies get the domain's labels but the template's node group, capacity type and
    // price: say which node they are of, and when it lies outside the domain, that it does.
    const model::DomainId d = resolveDomain(nullptr);
    const model::DomainId at = topology->nodeDomain(n);
    bool inside = !d.isValid() || d == topology->root();
    for (model::DomainId p = at; !inside && p.isValid(); p = p == topology->root() ? model::DomainId() : topology->domainParent(p))
        inside = p == d;
    QString text = tr("Copies %1 (%2).").arg(qs(store->nodeName(n)), qs(model::domainPathText(*topology, at)));
    if (!inside)
        text += tr(" The domain has no such node, so the copies are of this node elsewhere and go into the domain with its node group and price.");
    m_templateNote->setText(text);
}

bool AddNodesDialog::setInstanceType(const QString& type)
{
    if (m_type->count() == 0)
        fillTypes();
    const int i = m_type->findData(type);
    if (i < 0)
        return false;
    m_type->setCurrentIndex(i);
    return true;
}

bool AddNodesDialog::setCapacityType(const QString& capacity)
{
    const int i = m_capacity->findData(capacity);
    if (i < 0)
        return false;
    m_capacity->setCurrentIndex(i);
    return true;
}

void AddNodesDialog::setDomainPath(const QString& path) { m_domain->setText(path); }
void AddNodesDialog::setCount(int count) { m_count->setValue(count); }
int AddNodesDialog::count() const { return m_count->value(); }
QString AddNodesDialog::domainPath() const { return m_domain->text().trimmed(); }

void AddNodesDialog::setWorkload(model::WorkloadId workload)
{
    m_workload = workload;
    const auto store = m_plan->store();
    const bool valid = store && workload.isValid() && workload.index() < store->workloadCount();
    m_workloadButton->setEnabled(valid);
    m_workloadButton->setText(valid ? tr("Workload %1 %2/%3, into the domain")
                                          .arg(qs(model::ownerKindName(store->workloadKind(workload))), qs(store->workloadNamespace(workload)),
                                              qs(store->workloadName(workload)))
                                    : tr("A workload (select a node that runs one)"));
    (valid ? m_workloadButton : m_pending)->setChecked(true);
}

model::DomainId AddNodesDialog::resolveDomain(QString* error) const
{
    const auto topology = m_plan->topology();
    if (!topology)
        return {};
    if (domainPath().isEmpty())
        return topology->root();
    try {
        return model::findDomainByPath(*topology, model::parseDomainPath(domainPath().toStdString()));
    } catch (const std::invalid_argument& e) {
        if (error)
            *error = tr("Domain %1: %2").arg(domainPath(), QString::fromStdString(e.what()));
        return {};
    }
}

void AddNodesDialog::clearAnswer()
{
    dropRunning(); // an answer still computing is for the old question
    m_answer = {};
    m_copies.clear();
    m_answerLabel->clear();
}

model::NodesNeededQuestion AddNodesDialog::question() const
{
    model::NodesNeededQuestion q;
    q.addNode.type = model::ActionType::AddNode;
    q.addNode.instanceType = m_type->currentData().toString().toStdString();
    q.addNode.capacityType = m_capacity->currentData().toString().toStdString();
    q.addNode.domain = domainPath().toStdString();
    if (m_workloadButton->isChecked())
        q.workload = m_workload;
    return q;
}

void AddNodesDialog::setPlacePods(bool place) { m_place->setChecked(place); }
bool AddNodesDialog::placePods() const { return m_place->isChecked(); }

bool AddNodesDialog::computeCount()
{
    const auto engine = m_plan->engine();
    QString error;
    const model::DomainId domain = resolveDomain(&error);
    if (m_job->isRunning() || !engine || m_type->currentData().toString().isEmpty() || !domain.isValid()) {
        if (!error.isEmpty())
            m_answerLabel->setText(error);
        return false;
    }
    m_compute->setEnabled(false);
    m_answerLabel->setText(tr("Computing\u2026"));
    const model::NodesNeededQuestion q = question();
    std::vector<model::PlanAction> current;
    current.reserve(engine->applied().size());
    for (const model::AppliedAction& a : engine->applied())
        current.push_back(a.action);
    auto reading = std::make_shared<StoreReadGuard>(m_plan->storeReaders(), m_plan->shownStore()); // a live batch waits for this worker
    // Its own engine, the window's plan replayed: the shown one stays untouched on the GUI thread.
    m_job->start(
        tr("How many %1 nodes would it take\u2026").arg(m_type->currentData().toString()),
        [q, current = std::move(current), store = m_plan->store(), topology = m_plan->topology(), prices = m_plan->nodePrices(),
            capacity = m_capacity->currentData().toString(), reading](LongJobToken& token) {
            model::NodesNeededQuestion question = q;
            Counted out;
            try {
                const auto prepared = progressBetween(token, 0.0, 0.1);
                model::PlanEngine scratch(*store, *topology, prices);
                for (std::size_t i = 0; i < current.size() && !token.isCancelled(); ++i) {
                    scratch.apply(current[i]);
                    prepared(static_cast<double>(i + 1) / static_cast<double>(current.size()));
                }
                if (!question.workload.isValid())
                    question.pods = model::pendingPods(scratch);
                model::NodesNeededControl control;
                control.cancel = token.cancelFlag();
                control.progress = progressBetween(token, 0.1, 1.0);
                out.answer = std::make_shared<model::NodesNeededAnswer>();
                if (token.isCancelled()) {
                    out.answer->cancelled = true;
                } else if (!question.workload.isValid()) {
                    // The pending pods: a copy of a node of each node group they need, as
                    // `plan add-nodes --fit-pending` adds them (the scratch engine keeps them).
                    model::FitPendingAnswer fitted = model::fitPendingPerNodeGroup(scratch, question.addNode, question.maxNodes, control);
                    *out.answer = std::move(fitted.answer);
                    out.copied = fitted.firstTemplate;
                    out.copies = std::move(fitted.copies);
                } else {
                    *out.answer = model::nodesNeeded(scratch, question, control);
                    if (!out.answer->cancelled) {
                        out.copied = templateNode(*store, nodesOf(*store, question.addNode.instanceType), capacity, model::storePendingPods(*store));
                        if (out.answer->nodes > 0 && out.copied.isValid())
                            out.copies.push_back({ out.copied, out.answer->nodes });
                    }
                }
            } catch (const std::exception& e) {
                out.answer.reset();
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this](Counted out) { onAnswer(std::move(out.answer), out.copied, std::move(out.copies), out.error); });
    return true;
}

void AddNodesDialog::onAnswer(
    std::shared_ptr<model::NodesNeededAnswer> answer, model::NodeId copied, std::vector<model::TemplateCopies> copies, QString error)
{
    m_compute->setEnabled(true);
    if (!answer) {
        m_answer = {};
        m_answerLabel->setText(tr("Cannot answer: %1.").arg(error));
        emit countComputed(false);
        return;
    }
    if (answer->cancelled) {
        m_answer = {};
        m_answerLabel->setText(tr("Cancelled: no answer; the plan is as it was."));
        emit countComputed(false);
        return;
    }
    m_copied = copied;
    m_copies = std::move(copies);
    m_answer = std::move(*answer);
    if (m_answer.nodes > 0)
        m_count->setValue(m_answer.nodes);
    m_answerLabel->setText(answerText());
    emit countComputed(true);
}

QString AddNodesDialog::answerText() const
{
    const auto store = m_plan->store();
    if (!store)
        return {};
    const model::NodesNeededAnswer& a = m_answer;
    const QString type = m_type->currentData().toString();
    const model::NodeId copied = m_copied.isValid() && m_copied.index() < store->nodeCount() ? m_copied : model::NodeId();
    // A template by its name and node group: "gpu-7 (node group p5-train)".
    auto named = [&](model::NodeId n) {
        const std::string group = model::nodeGroupOf(*store, n);
        return group.empty() ? tr("%1 (no node group)").arg(qs(store->nodeName(n))) : tr("%1 (node group %2)").arg(qs(store->nodeName(n)), qs(group));
    };
    QString copies = copied.isValid() ? tr("A %1 node added copies %2. ").arg(type, named(copied)) : QString();
    if (m_copies.size() > 1) {
        // The pending pods of several node groups: a copy of a node of each, every one named.
        QStringList each;
        for (const model::TemplateCopies& c : m_copies)
            if (c.templateNode.isValid() && c.templateNode.index() < store->nodeCount())
                each << tr("%1 copy %2").arg(QString::fromStdString(model::formatCount(c.nodes)), named(c.templateNode));
        copies = tr("The %1 nodes added copy a node of each node group the pending pods need: %2. ").arg(type, each.join(QStringLiteral("; ")));
    }
    if (a.pods == 0)
        return copies + tr("Nothing to place: no pod is pending.");
    QString text = copies;
    auto n = [](std::int64_t v) { return QString::fromStdString(model::formatCount(v)); }; // "1,103"
    text += a.nodes == 0 ? tr("No %1 node would help: %2 of %3 pods placed without any.").arg(type, n(a.podsPlaced), n(a.pods))
                         : (a.nodes == 1 ? tr("It takes 1 %1 node: %2 of %3 pods placed.").arg(type, n(a.podsPlaced), n(a.pods))
                                         : tr("It takes %1 %2 nodes: %3 of %4 pods placed.").arg(n(a.nodes), type, n(a.podsPlaced), n(a.pods)));
    if (a.limitReached)
        text += tr(" The search tried at most %1 nodes, and pods still waited: more nodes of this type would place no "
                   "more of them, or the answer lies beyond; the pods that still do not fit say why.")
                    .arg(QString::fromStdString(model::formatCount(model::NodesNeededQuestion {}.maxNodes)));
    if (!a.unplaced.empty()) {
        text += a.unplaced.size() == 1
            ? tr(" 1 pod still does not fit:")
            : tr(" %1 pods still do not fit:").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(a.unplaced.size()))));
        int shown = 0;
        for (const auto& [pod, reasons] : a.unplaced) {
            if (++shown > 8) {
                text += tr("\n\u2026 and %1 more").arg(a.unplaced.size() - 8);
                break;
            }
            text += QStringLiteral("\n\u2022 ") + qs(model::podKey(*store, pod)) + QStringLiteral(": ") + views::planReasonsText(reasons);
        }
    }
    return text;
}

bool AddNodesDialog::addNodes()
{
    QString error;
    const model::DomainId domain = resolveDomain(&error);
    if (!domain.isValid()) {
        m_answerLabel->setText(error.isEmpty() ? tr("No cluster is shown.") : error);
        return false;
    }
    if (m_job->isRunning())
        return false;
    const auto engine = m_plan->engine();
    if (!m_place->isChecked() || !engine) {
        if (!m_plan->addNodes(m_type->currentData().toString(), m_capacity->currentData().toString(), domain, m_count->value())) {
            m_answerLabel->setText(m_plan->lastMessage());
            emit nodesAdded(false);
            return false;
        }
        accept();
        emit nodesAdded(true);
        return true;
    }
    // On a worker over its own engine, the window's plan replayed (the placements are
    // O(pods x nodes) at worst); the window adopts that engine as one undo step.
    model::NodesNeededQuestion q = question();
    q.addNode.domain = domain != m_plan->topology()->root() ? model::domainPathText(*m_plan->topology(), domain) : std::string();
    std::vector<model::PlanAction> current;
    for (const model::AppliedAction& a : engine->applied())
        current.push_back(a.action);
    const int count = m_count->value();
    // The count How Many? answered for pending pods of several node groups: its add-nodes again,
    // a copy of a node of each group (one add-node of the count would copy one group's node).
    const bool perNodeGroup = m_copies.size() > 1 && !q.workload.isValid() && count == m_answer.nodes;
    m_compute->setEnabled(false);
    m_answerLabel->setText(tr("Adding %1 nodes and placing the pods\u2026").arg(QString::fromStdString(model::formatCount(count))));
    auto reading = std::make_shared<StoreReadGuard>(m_plan->storeReaders(), m_plan->shownStore()); // a live batch waits for this worker
    m_job->start(
        m_answerLabel->text(),
        [q, count, perNodeGroup, current = std::move(current), store = m_plan->store(), topology = m_plan->topology(), prices = m_plan->nodePrices(),
            reading, prepare = m_plan->stepPreparer()](LongJobToken& token) {
            model::NodesNeededQuestion question = q;
            Placed out;
            out.appliedBefore = current.size();
            try {
                const auto prepared = progressBetween(token, 0.0, 0.3);
                out.engine = std::make_shared<model::PlanEngine>(*store, *topology, prices);
                for (std::size_t i = 0; i < current.size() && !token.isCancelled(); ++i) {
                    out.engine->apply(current[i]);
                    prepared(static_cast<double>(i + 1) / static_cast<double>(current.size()));
                }
                if (!question.workload.isValid())
                    question.pods = model::pendingPods(*out.engine);
                model::NodesNeededControl control;
                control.cancel = token.cancelFlag();
                control.progress = progressBetween(token, 0.3, 1.0);
                if (token.isCancelled()) {
                    out.placed = -1;
                } else if (perNodeGroup) {
                    const model::FitPendingAnswer fitted = model::fitPendingPerNodeGroup(*out.engine, question.addNode, count, control);
                    out.placed = fitted.answer.cancelled ? -1 : fitted.answer.podsPlaced;
                } else {
                    out.placed = model::addNodesAndPlace(*out.engine, question, count, control);
                }
                if (out.placed < 0) {
                    out.engine.reset();
                    out.error = tr("cancelled; the plan is as it was");
                } else {
                    out.prepared = prepare(*out.engine, current.size()); // the undo step's commands and the plan marks, here
                }
            } catch (const std::exception& e) {
                out.engine.reset();
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this](Placed out) { onPlaced(std::move(out.engine), out.appliedBefore, out.placed, out.error, std::move(out.prepared)); });
    return true;
}

void AddNodesDialog::onPlaced(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, int placed, QString error,
    PlanController::PreparedStep prepared)
{
    m_compute->setEnabled(true);
    const QString type = m_type->currentData().toString();
    const int count = m_count->value();
    const QString nodes = QString::fromStdString(model::formatCount(count));
    if (!engine) {
        m_answerLabel->setText(tr("Cannot add %1 %2 nodes: %3.").arg(nodes, type, error));
        emit nodesAdded(false);
        return;
    }
    const QString text = placed == 0 ? tr("Add %1 %2 nodes").arg(nodes, type)
                                     : tr("Add %1 %2 nodes, place %3 pending pods").arg(nodes, type, QString::fromStdString(model::formatCount(placed)));
    if (!m_plan->adoptStep(std::move(engine), appliedBefore, text, std::move(prepared))) {
        m_answerLabel->setText(tr("The plan changed while the nodes were being added: press Add again."));
        emit nodesAdded(false);
        return;
    }
    // The pending pods placed go wherever they fit first, the room that was free included.
    m_plan->showMessage(placed == 0 ? tr("Added %1 %2 nodes; no pending pod fits on them.").arg(nodes, type)
                                    : tr("Added %1 %2 nodes and placed %3 pending pods (on them or on room that was free).")
                                          .arg(nodes, type, QString::fromStdString(model::formatCount(placed))));
    accept();
    emit nodesAdded(true);
}

} // namespace fleet::app
