#pragma once

namespace dct::solvers {

/**
 * Sets the field \a key of a memo's key to \a value, copying only when the two compare unequal.
 * Keys are only ever compared (operator==, which compares every field a figure or a diagnostic
 * reads), so a key equal to \a value already stands for it; a catalog entry's descriptive text
 * (name, sources, notes), which operator== leaves out, is then not copied again on every
 * evaluation. Afterwards the key compares equal to \a value either way.
 */
template <class T> void assignKey(T& key, const T& value)
{
    if (!(key == value))
        key = value;
}

} // namespace dct::solvers
