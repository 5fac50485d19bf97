#include "dct/ui/startpage.h"

#include "dct/model/catalog.h"
#include "dct/ui/format.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QFile>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

namespace dct::ui {

StartPage::StartPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("startPage"));
    auto* outer = new QVBoxLayout(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* page = new QWidget(scroll);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(24, 18, 24, 18);

    auto* title = new QLabel(tr("<h2>DC Twin</h2><p>Open a scenario to see its figures: racks and "
                                "megawatts, the fabric, cooling and PUE, training time and the "
                                "cost of ownership. Start from an example, a file or a new "
                                "scenario; the library on the left holds every stored scenario "
                                "(double-click one to open it).</p>"),
                             page);
    title->setWordWrap(true);
    layout->addWidget(title);

    auto* actions = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open a scenario file..."), page);
    auto* create = new QPushButton(tr("New scenario"), page);
    connect(open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(create, &QPushButton::clicked, this, &StartPage::newRequested);
    actions->addWidget(open);
    actions->addWidget(create);
    actions->addStretch(1);
    layout->addLayout(actions);

    layout->addWidget(new QLabel(tr("<h3>Examples</h3>"), page));
    auto* grid = new QGridLayout;
    const QDir examples(
        QString::fromStdString((model::Catalog::dataDirectory() / "examples").string()));
    int index = 0;
    for (const QString& name :
         examples.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(examples.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const auto json = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
        if (!json.is_object())
            continue;
        const QString path = examples.filePath(name);
        QString description = qstr(json.value("description", std::string()));
        if (description.size() > 220)
            description = description.left(217) + QStringLiteral("...");
        auto* button =
            new QCommandLinkButton(qstr(json.value("name", name.toStdString())), description, page);
        button->setObjectName(QStringLiteral("example_") + name);
        button->setToolTip(path);
        connect(button, &QCommandLinkButton::clicked, this,
                [this, path] { emit exampleChosen(path); });
        grid->addWidget(button, index / 2, index % 2);
        m_examples << path;
        ++index;
    }
    layout->addLayout(grid);
    layout->addStretch(1);
    scroll->setWidget(page);
}

} // namespace dct::ui
