#pragma once

#include "dct/ui/evaluationoutcome.h"

#include <QChartView>

namespace dct::ui {

/**
 * Where a training step's time goes, as one stacked horizontal bar per part: matrix math,
 * element-wise work, the exposed tensor-, context-, expert-, pipeline- and data-parallel
 * communication, the pipeline bubble, the optimizer, stragglers, and the run's checkpoints and
 * failures spread over its steps (solvers::stepBreakdown()).
 */
class StepBreakdownChart : public QChartView
{
    Q_OBJECT

public:
    explicit StepBreakdownChart(QWidget* parent = nullptr);

    /** Shows the step of \a outcome (an empty chart with the reason when there is none). */
    void setOutcome(const EvaluationOutcome& outcome);
    /** Returns the parts shown, in seconds per step (empty when none). */
    const std::vector<std::pair<QString, double>>& parts() const { return m_parts; }

private:
    std::vector<std::pair<QString, double>> m_parts;
};

} // namespace dct::ui
