#pragma once

#include "dct/report/reportrenderer.h"

#include <string>

namespace dct::ui {

/**
 * Writes \a report as an A4 PDF to \a path (QTextDocument on QPdfWriter, charts drawn from their
 * SVG), atomically. Needs a QGuiApplication. Returns "" or what went wrong.
 */
std::string writeReportPdf(const report::ReportRenderer& report, const std::string& path);

} // namespace dct::ui
