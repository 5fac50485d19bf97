#pragma once

#include <QStringList>
#include <QWidget>

namespace dct::ui {

/**
 * What the window shows while no scenario is open: the bundled examples, each with its name and
 * what it shows, a file to open, a new scenario, and a pointer to the library on the left.
 */
class StartPage : public QWidget
{
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);

    /** Returns the example files offered, in the order shown. */
    const QStringList& examples() const { return m_examples; }

signals:
    /** The example at \a path was chosen. */
    void exampleChosen(const QString& path);
    /** "Open a scenario file" was chosen. */
    void openRequested();
    /** "New scenario" was chosen. */
    void newRequested();

private:
    QStringList m_examples;
};

} // namespace dct::ui
