// The form editor is generated from the field tables and marks the fields diagnostics name.
#include "dct/model/scenario.h"
#include "dct/ui/evaluationoutcome.h"
#include "dct/ui/fieldgroup.h"
#include "dct/ui/scenarioform.h"
#include "uitestsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <catch2/catch.hpp>

using namespace dct;

TEST_CASE("form groups hold every field of the scenario tables", "[ui][form]")
{
    const auto& groups = ui::scenarioFieldGroups();
    REQUIRE(groups.size() == 7);
    CHECK(groups[0].title == "Site");
    CHECK(groups[5].title == "Hall");
    CHECK(groups[6].title == "Economics");
    std::size_t fields = 0;
    for (const auto& g : groups)
        fields += g.fields.size();
    const std::size_t expected =
        3 + model::ComputeSection::fields().size() + model::StorageSection::fields().size() +
        model::NetworkSection::fields().size() + model::FacilitySection::fields().size() +
        model::CoolingSection::fields().size() + model::WorkloadSection::fields().size() +
        model::HallSection::fields().size() + model::EconomicsSection::fields().size();
    CHECK(fields == expected);
    const ui::FieldInfo* rack = ui::findFieldInfo("/facility/rack_power_limit_kw");
    REQUIRE(rack);
    CHECK(rack->label == "Rack power limit");
    CHECK(rack->unit == "kW");
    // An override inside a catalog reference maps to the reference's field.
    const ui::FieldInfo* node = ui::findFieldInfo("/compute/node/tdp_w");
    REQUIRE(node);
    CHECK(node->pointer == "/compute/node");
    CHECK(ui::humanLabel("mtu_bytes", "bytes") == "MTU");
    CHECK(ui::humanLabel("mtp_layers", "") == "MTP layers");
    CHECK(ui::humanLabel("tp_comm_overlap", "") == "TP comm overlap");
}

TEST_CASE("form editors take their kind and range from the field table", "[ui][form]")
{
    ui::ScenarioForm form;
    ui::ScenarioDocument document(
        nlohmann::json::parse(R"({"schema_version": 2, "compute": {"node_count": 32}})"));
    form.setDocument(&document);

    auto* count = qobject_cast<QSpinBox*>(form.editor("/compute/node_count"));
    REQUIRE(count);
    CHECK(count->minimum() == 1);
    CHECK(count->maximum() == 10000000);
    CHECK(count->value() == 32);
    auto* utilization = qobject_cast<QDoubleSpinBox*>(form.editor("/compute/utilization"));
    REQUIRE(utilization);
    // A share is edited in percent.
    CHECK(utilization->maximum() == Approx(100.0));
    CHECK(utilization->value() == Approx(85.0)); // The default of an absent key.
    CHECK(utilization->suffix() == QStringLiteral(" %"));
    auto* protocol = qobject_cast<QComboBox*>(form.editor("/network/protocol"));
    REQUIRE(protocol);
    CHECK(protocol->findText("InfiniBand") >= 0);
    CHECK(protocol->findData("infiniband") >= 0);
    auto* gpu = qobject_cast<QComboBox*>(form.editor("/compute/gpu"));
    REQUIRE(gpu);
    CHECK(gpu->findData(QStringLiteral("h100-sxm5")) >= 0);
    CHECK(qobject_cast<QCheckBox*>(form.editor("/facility/hvdc")));
    // A 0 that stands for a choice says so instead of showing a bare 0.
    auto* rails = qobject_cast<QSpinBox*>(form.editor("/network/rails"));
    REQUIRE(rails);
    CHECK(rails->value() == 0);
    CHECK(rails->text() == QStringLiteral("automatic"));
    auto* layer2 = qobject_cast<QSpinBox*>(form.editor("/network/layer2_domain_nodes"));
    REQUIRE(layer2);
    CHECK(layer2->text() == QStringLiteral("a routed fabric"));

    // A widget edit becomes an undoable command on the document, not a direct mutation.
    count->setValue(48);
    CHECK(document.value("/compute/node_count") == 48);
    CHECK(document.undoStack()->count() == 1);
    document.undoStack()->undo();
    CHECK(document.value("/compute/node_count") == 32);
    CHECK(count->value() == 32);
    document.undoStack()->redo();
    CHECK(count->value() == 48);
    REQUIRE(test::waitForEvaluation(document));
}

TEST_CASE("diagnostics mark the field they point at and focus it", "[ui][form]")
{
    ui::ScenarioForm form;
    form.resize(400, 600);
    form.show();
    ui::ScenarioDocument document(nlohmann::json{{"schema_version", 2}});
    form.setDocument(&document);
    Diagnostics d;
    d.error("/workload/tensor_parallel", "tensor parallel does not divide the GPUs", "8 or 16");
    form.setDiagnostics(d);
    QWidget* editor = form.editor("/workload/tensor_parallel");
    REQUIRE(editor);
    CHECK(editor->property("dctSeverity").toString() == "error");
    CHECK(editor->toolTip().contains("does not divide"));
    CHECK(form.focusField("/workload/tensor_parallel"));
    CHECK(editor->isVisibleTo(&form));
    form.setDiagnostics({});
    CHECK_FALSE(editor->property("dctSeverity").isValid());
    CHECK_FALSE(form.focusField("/no/such/field"));
}

TEST_CASE("a page holding a second section shows its sub-heading", "[ui][form]")
{
    ui::ScenarioForm form;
    // Storage fields sit on the Compute page; their labels ("Power (kW)") need the heading.
    const auto* storage = form.findChild<QLabel*>(QStringLiteral("sectionHeading_storage"));
    REQUIRE(storage);
    CHECK(storage->text().contains(QStringLiteral("Storage")));
    CHECK(form.findChild<QLabel*>(QStringLiteral("sectionHeading_facility")));
    CHECK_FALSE(form.findChild<QLabel*>(QStringLiteral("sectionHeading_compute")));
    CHECK_FALSE(form.findChild<QLabel*>(QStringLiteral("sectionHeading_site")));
}

TEST_CASE("the form names choices and catalog entries, offers the protocol's switches and says "
          "what automatic chose",
          "[ui][form][names]")
{
    ui::ScenarioForm form;
    QFile file(test::examplePath("seed-h100-dallas-d2c.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    ui::ScenarioDocument document(nlohmann::json::parse(file.readAll().toStdString()));
    form.setDocument(&document);
    document.evaluateNow();
    form.setOutcome(*document.outcome());

    // Names, not ids: the choice and the catalog entry; the id stays the data.
    auto* protocol = qobject_cast<QComboBox*>(form.editor("/network/protocol"));
    REQUIRE(protocol);
    CHECK(protocol->currentText() == QStringLiteral("RoCE v2 (Ethernet)"));
    CHECK(protocol->currentData().toString() == QStringLiteral("roce_v2"));
    auto* switches = qobject_cast<QComboBox*>(form.editor("/network/switch"));
    REQUIRE(switches);
    CHECK(switches->currentData().toString() == QStringLiteral("sn2700"));
    CHECK(switches->currentText().contains(QStringLiteral("SN2700")));
    // RoCE: Ethernet switches only; InfiniBand switches after the protocol changes.
    CHECK(switches->findData(QStringLiteral("qm9700")) < 0);
    CHECK(switches->findData(QStringLiteral("sn5600")) >= 0);
    document.edit("/network/protocol", "infiniband");
    CHECK(switches->findData(QStringLiteral("qm9700")) >= 0);
    CHECK(switches->findData(QStringLiteral("sn5600")) < 0);
    document.undoStack()->undo();
    CHECK(switches->findData(QStringLiteral("qm9700")) < 0);

    // "automatic (8)": what a 0 came to in the evaluation.
    auto* gpus = qobject_cast<QSpinBox*>(form.editor("/compute/gpus_per_node"));
    REQUIRE(gpus);
    CHECK(gpus->text() == QStringLiteral("automatic (8)"));
    // A rail-optimized fabric's unit left at 0: the 16 down ports of a 32-port leaf.
    document.edit("/network/topology", "rail_optimized");
    document.evaluateNow();
    form.setOutcome(*document.outcome());
    auto* unit = qobject_cast<QSpinBox*>(form.editor("/network/scalable_unit_nodes"));
    REQUIRE(unit);
    CHECK(unit->value() == 0);
    CHECK(unit->text() == QStringLiteral("automatic (16)"));

    // Labels say the unit in words: "Parameters (billions)", "Utilization (%)".
    QStringList labels;
    for (QLabel* label : form.findChildren<QLabel*>())
        labels << label->text();
    CHECK(labels.contains(QStringLiteral("Parameters (billions)")));
    CHECK(labels.contains(QStringLiteral("Utilization (%)")));
    CHECK(labels.contains(QStringLiteral("UPS no load (%)")));
}

namespace {

/** Returns the figure \a key of the latest evaluation of \a document; fails when it has none. */
double figure(const ui::ScenarioDocument& document, const std::string& key)
{
    const solvers::Metric* m = document.outcome()->metric({key});
    REQUIRE(m);
    return m->value;
}

/** Reads the JSON of the file \a path. */
nlohmann::json readJson(const QString& path)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return nlohmann::json::parse(file.readAll().toStdString());
}

} // namespace

TEST_CASE("the workload page edits gradient precision, dropout and the fused loss, a saved "
          "scenario reloads with them and the memory follows",
          "[ui][form][workload]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // The seed example names none of the three: it takes the defaults (auto, dropout, an unfused
    // loss).
    const QString example = test::examplePath("seed-h100-dallas-d2c.json");
    REQUIRE_FALSE(readJson(example)["workload"].contains("gradient_precision"));
    ui::ScenarioDocument document(readJson(example), example);
    ui::ScenarioForm form;
    form.resize(520, 800);
    form.show();
    form.setDocument(&document);
    document.evaluateNow();

    auto* gradients = qobject_cast<QComboBox*>(form.editor("/workload/gradient_precision"));
    auto* dropout = qobject_cast<QCheckBox*>(form.editor("/workload/dropout"));
    auto* fused = qobject_cast<QCheckBox*>(form.editor("/workload/fused_cross_entropy"));
    REQUIRE(gradients);
    REQUIRE(dropout);
    REQUIRE(fused);
    CHECK(gradients->count() == 3);
    CHECK(gradients->currentData().toString() == QStringLiteral("auto"));
    // Not the collectives' "Automatic (the fastest)": the gradients' auto is a precision.
    CHECK(gradients->currentText() == QStringLiteral("Automatic (FP32; FP16 in FP16 training)"));
    CHECK(gradients->itemText(2) == QStringLiteral("BF16"));
    CHECK(dropout->isChecked());
    CHECK_FALSE(fused->isChecked());
    // The tooltips say what each does to memory and traffic.
    CHECK(gradients->toolTip().contains(QStringLiteral("reduce-scatter or all-reduce")));
    CHECK(gradients->toolTip().contains(QStringLiteral("Megatron-LM")));
    CHECK(dropout->toolTip().contains(QStringLiteral("masks")));
    CHECK(fused->toolTip().contains(QStringLiteral("kept at 2 bytes")));
    CHECK(fused->toolTip().contains(QStringLiteral("llm-foundry")));

    // Saved unedited, the file states them at their defaults, as it states every field the
    // example left out (the model writes the whole scenario at the current schema version).
    const QString unedited = dir.filePath(QStringLiteral("unedited.json"));
    REQUIRE(document.saveAs(unedited).isEmpty());
    const nlohmann::json defaults = readJson(unedited)["workload"];
    CHECK(defaults["gradient_precision"] == "auto");
    CHECK(defaults["dropout"] == true);
    CHECK(defaults["fused_cross_entropy"] == false);
    CHECK(defaults["flash_attention"] == true);

    // Each edit by keyboard, as a user makes it, and what it does to the per-GPU memory.
    const double gradientsGb = figure(document, "step.memory_gradients_gb");
    const double totalGb = figure(document, "step.memory_total_gb");
    gradients->setFocus();
    QTest::keyClick(gradients, Qt::Key_Down);
    CHECK(document.value("/workload/gradient_precision") == "fp32");
    QTest::keyClick(gradients, Qt::Key_Down);
    CHECK(document.value("/workload/gradient_precision") == "bf16");
    REQUIRE(test::waitForEvaluation(document));
    // BF16 gradients take 2 bytes where auto kept fp32's 4 for this BF16 run.
    CHECK(figure(document, "step.memory_gradients_gb") == Approx(gradientsGb / 2.0).epsilon(1e-9));
    CHECK(figure(document, "step.memory_total_gb") < totalGb);

    const double activationsGb = figure(document, "step.memory_activations_gb");
    QTest::keyClick(dropout, Qt::Key_Space);
    CHECK(document.value("/workload/dropout") == false);
    REQUIRE(test::waitForEvaluation(document));
    CHECK(figure(document, "step.memory_activations_gb") < activationsGb);

    const double buffersGb = figure(document, "step.memory_buffers_gb");
    QTest::keyClick(fused, Qt::Key_Space);
    CHECK(document.value("/workload/fused_cross_entropy") == true);
    REQUIRE(test::waitForEvaluation(document));
    CHECK(figure(document, "step.memory_buffers_gb") < buffersGb);
    CHECK(document.undoStack()->count() == 4); // fp32, bf16, dropout, fused

    // Saved and opened again: the file holds the three values and the form shows them.
    const QString edited = dir.filePath(QStringLiteral("edited.json"));
    REQUIRE(document.saveAs(edited).isEmpty());
    const nlohmann::json saved = readJson(edited);
    CHECK(saved["workload"]["gradient_precision"] == "bf16");
    CHECK(saved["workload"]["dropout"] == false);
    CHECK(saved["workload"]["fused_cross_entropy"] == true);
    CHECK(saved["workload"]["model"] == "llama2-13b"); // the rest as it was

    ui::ScenarioDocument reloaded(readJson(edited), edited);
    ui::ScenarioForm again;
    again.setDocument(&reloaded);
    reloaded.evaluateNow();
    const auto* gradientsAgain =
        qobject_cast<QComboBox*>(again.editor("/workload/gradient_precision"));
    REQUIRE(gradientsAgain);
    CHECK(gradientsAgain->currentData().toString() == QStringLiteral("bf16"));
    CHECK_FALSE(qobject_cast<QCheckBox*>(again.editor("/workload/dropout"))->isChecked());
    CHECK(qobject_cast<QCheckBox*>(again.editor("/workload/fused_cross_entropy"))->isChecked());
    CHECK(figure(reloaded, "step.memory_total_gb") ==
          Approx(figure(document, "step.memory_total_gb")).epsilon(1e-9));

    // Undo takes each back, to the values the unedited file states.
    for (int i = 0; i < 4; ++i)
        document.undoStack()->undo();
    CHECK(gradients->currentData().toString() == QStringLiteral("auto"));
    CHECK(dropout->isChecked());
    CHECK_FALSE(fused->isChecked());
    CHECK(document.value("/workload/gradient_precision") == "auto");
    REQUIRE(test::waitForEvaluation(document));
    CHECK(figure(document, "step.memory_total_gb") == Approx(totalGb).epsilon(1e-9));
}

TEST_CASE("an MFU of 0 reads \"predicted\", not the 1 % minimum, and an override is undoable",
          "[ui][form][mfu]")
{
    // The seed example leaves /workload/mfu out, at its default 0: the step model predicts it.
    const QString example = test::examplePath("seed-h100-dallas-d2c.json");
    REQUIRE_FALSE(readJson(example)["workload"].contains("mfu"));
    ui::ScenarioDocument document(readJson(example), example);
    ui::ScenarioForm form;
    form.setDocument(&document);
    auto* mfu = qobject_cast<QDoubleSpinBox*>(form.editor("/workload/mfu"));
    REQUIRE(mfu);
    CHECK(mfu->value() == 0.0);
    CHECK(mfu->text() == QStringLiteral("predicted"));
    // Loading shows the scenario as it is: no command, nothing modified.
    CHECK_FALSE(document.isModified());
    CHECK(document.undoStack()->count() == 0);
    CHECK(document.value("/workload/mfu") == 0);

    // After the evaluation the text says what the prediction came to.
    document.evaluateNow();
    form.setOutcome(*document.outcome());
    const double predicted = figure(document, "step.mfu");
    REQUIRE(predicted > 0.05);
    CHECK(mfu->text() ==
          QStringLiteral("predicted (%1 %)").arg(QString::number(predicted * 100.0, 'f', 1)));
    CHECK_FALSE(document.isModified());
    const auto overrides = [&document] {
        int n = 0;
        for (const auto& d : document.outcome()->diagnostics)
            n += d.code == "mfu-override" && d.path == "/workload/mfu";
        return n;
    };
    CHECK(overrides() == 0);

    // 45 % overrides the prediction, as one undoable command.
    mfu->setValue(45.0);
    CHECK(document.value("/workload/mfu").get<double>() == Approx(0.45));
    CHECK(document.isModified());
    CHECK(document.undoStack()->count() == 1);
    document.evaluateNow();
    CHECK(overrides() == 1);
    CHECK(mfu->text() == QStringLiteral("45.00 %"));

    // Back to 0: the prediction again.
    mfu->setValue(0.0);
    CHECK(document.value("/workload/mfu") == 0);
    document.evaluateNow();
    CHECK(overrides() == 0);
    CHECK(figure(document, "step.mfu") == Approx(predicted));
    CHECK(mfu->text().startsWith(QStringLiteral("predicted")));

    // A value between 0 and the 1 % floor asks for an override: the smallest one, 1 %, is
    // committed and shown, never something the field does not accept.
    mfu->setValue(0.5);
    CHECK(document.value("/workload/mfu").get<double>() == Approx(0.01));
    CHECK(mfu->value() == Approx(1.0));
    document.evaluateNow();
    CHECK(overrides() == 1);

    // Undo walks back through the prediction to the loaded scenario.
    document.undoStack()->undo();
    CHECK(document.value("/workload/mfu") == 0);
    CHECK(mfu->text().startsWith(QStringLiteral("predicted")));
    document.undoStack()->undo();
    CHECK(document.value("/workload/mfu").get<double>() == Approx(0.45));
    CHECK(mfu->value() == Approx(45.0));
    document.undoStack()->undo();
    CHECK(document.value("/workload/mfu") == 0);
    CHECK_FALSE(document.isModified());
}

TEST_CASE("number fields whose 0 means none accept it and name it", "[ui][form][mfu]")
{
    ui::ScenarioForm form;
    int zeroAllowed = 0;
    for (const auto& group : ui::scenarioFieldGroups())
        for (const auto& field : group.fields) {
            if (field.kind != model::FieldKind::Number || !field.zeroAllowed)
                continue;
            ++zeroAllowed;
            INFO(field.pointer);
            auto* spin =
                qobject_cast<QDoubleSpinBox*>(form.editor(QString::fromStdString(field.pointer)));
            REQUIRE(spin);
            CHECK(spin->minimum() == 0.0);
            CHECK_FALSE(spin->specialValueText().isEmpty());
        }
    CHECK(zeroAllowed >= 1);
    auto* mfu = qobject_cast<QDoubleSpinBox*>(form.editor("/workload/mfu"));
    REQUIRE(mfu);
    CHECK(mfu->specialValueText() == QStringLiteral("predicted"));
    // Each 0 reads as what the field declares it stands for, whatever its description says.
    const std::vector<std::pair<const char*, const char*>> expected = {
        {"/hall/rack_pitch_m", "automatic"},
        {"/hall/row_busway_kw", "automatic"},
        {"/hall/floor_area_m2", "unchecked"},
        {"/compute/gpu_power_limit_w", "none"}};
    for (const auto& [pointer, text] : expected) {
        INFO(pointer);
        auto* spin = qobject_cast<QDoubleSpinBox*>(form.editor(QString::fromLatin1(pointer)));
        REQUIRE(spin);
        CHECK(spin->specialValueText() == QString::fromLatin1(text));
    }
}

TEST_CASE("the hall page edits the floor a scenario without a hall section takes by default",
          "[ui][form][hall]")
{
    // The seed example states no hall: the form shows the defaults the model lays it out with.
    const QString example = test::examplePath("seed-h100-dallas-d2c.json");
    REQUIRE_FALSE(readJson(example).contains("hall"));
    ui::ScenarioDocument document(readJson(example), example);
    ui::ScenarioForm form;
    form.setDocument(&document);
    auto* area = qobject_cast<QDoubleSpinBox*>(form.editor("/hall/floor_area_m2"));
    auto* pitch = qobject_cast<QDoubleSpinBox*>(form.editor("/hall/rack_pitch_m"));
    auto* containment = qobject_cast<QComboBox*>(form.editor("/hall/containment"));
    auto* lengths = qobject_cast<QComboBox*>(form.editor("/hall/cable_lengths"));
    REQUIRE(area);
    REQUIRE(pitch);
    REQUIRE(containment);
    REQUIRE(lengths);
    CHECK(area->text() == QStringLiteral("unchecked"));
    CHECK(pitch->text() == QStringLiteral("automatic"));
    CHECK(lengths->currentText() == QStringLiteral("From the floor plan"));
    CHECK(containment->findText(QStringLiteral("Hot-aisle containment")) >= 0);
    CHECK_FALSE(document.isModified());

    // A floor smaller than the racks need: one undoable edit, and the evaluation says so on it.
    document.evaluateNow();
    const double floorM2 = figure(document, "hall.floor_m2");
    REQUIRE(floorM2 > 10.0);
    area->setValue(10.0);
    CHECK(document.value("/hall/floor_area_m2").get<double>() == Approx(10.0));
    CHECK(document.undoStack()->count() == 1);
    document.evaluateNow();
    const auto onArea = [&document] {
        int n = 0;
        for (const auto& d : document.outcome()->diagnostics)
            n += d.path == "/hall/floor_area_m2";
        return n;
    };
    CHECK(onArea() == 1);
    document.undoStack()->undo();
    document.evaluateNow();
    CHECK(onArea() == 0);
    CHECK(area->text() == QStringLiteral("unchecked"));
}

TEST_CASE("the workload page edits the recompute modules as a list and the optimizer's moments",
          "[ui][form][workload][recompute]")
{
    const QString example = test::examplePath("seed-h100-dallas-d2c.json");
    ui::ScenarioDocument document(readJson(example), example);
    ui::ScenarioForm form;
    form.resize(520, 800);
    form.show();
    form.setDocument(&document);
    document.evaluateNow();

    auto* modules = qobject_cast<QLineEdit*>(form.editor("/workload/recompute_modules"));
    auto* moments = qobject_cast<QComboBox*>(form.editor("/workload/optimizer_moments"));
    REQUIRE(modules);
    REQUIRE(moments);
    // Megatron-Core's default, and the names it accepts shown when the list is empty.
    CHECK_FALSE(modules->isReadOnly());
    CHECK(modules->text() == QStringLiteral("core_attn"));
    CHECK(modules->placeholderText().contains(QStringLiteral("mla_up_proj")));
    CHECK(modules->toolTip().contains(QStringLiteral("--recompute-modules")));

    // Typed as a user types it: the MLP recomputed frees its activations.
    const double activationsGb = figure(document, "step.memory_activations_gb");
    modules->setFocus();
    modules->selectAll();
    QTest::keyClicks(modules, QStringLiteral("core_attn, mlp"));
    QTest::keyClick(modules, Qt::Key_Return);
    CHECK(document.value("/workload/recompute_modules") == nlohmann::json({"core_attn", "mlp"}));
    REQUIRE(test::waitForEvaluation(document));
    CHECK(figure(document, "step.memory_activations_gb") < activationsGb);
    CHECK(figure(document, "step.recompute_seconds") > 0.0);

    // A name Megatron-Core does not know is an error on the field, the text kept as typed.
    modules->selectAll();
    QTest::keyClicks(modules, QStringLiteral("core_attn, norms"));
    QTest::keyClick(modules, Qt::Key_Return);
    REQUIRE(test::waitForEvaluation(document));
    const auto& diagnostics = document.outcome()->diagnostics;
    CHECK(std::any_of(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
        return d.severity == Severity::Error && d.path == "/workload/recompute_modules";
    }));
    CHECK(modules->text() == QStringLiteral("core_attn, norms"));

    // BF16 moments: 8 bytes of optimizer state a parameter instead of 12.
    document.undoStack()->undo();
    REQUIRE(test::waitForEvaluation(document));
    const double optimizerGb = figure(document, "step.memory_optimizer_gb");
    CHECK(moments->currentData().toString() == QStringLiteral("fp32"));
    moments->setFocus();
    QTest::keyClick(moments, Qt::Key_Down);
    CHECK(document.value("/workload/optimizer_moments") == "bf16");
    REQUIRE(test::waitForEvaluation(document));
    CHECK(figure(document, "step.memory_optimizer_gb") ==
          Approx(optimizerGb * 8.0 / 12.0).epsilon(1e-9));
    document.undoStack()->undo();
    document.undoStack()->undo();
    CHECK(modules->text() == QStringLiteral("core_attn"));
    CHECK(moments->currentData().toString() == QStringLiteral("fp32"));
}
