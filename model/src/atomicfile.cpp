#include "dct/model/atomicfile.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace dct {

namespace {

/** Flushes \a path's data to disk; returns false when the system says it could not. */
bool syncFile(const std::filesystem::path& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0)
        return false;
    const bool synced = ::fsync(fd) == 0;
    return ::close(fd) == 0 && synced;
}

/** Returns this host's name as it appears in temporary file names (letters, digits, '.', '-'). */
std::string hostTag()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0')
        return "host";
    std::string tag;
    for (const char* c = name; *c; ++c) {
        const bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                           (*c >= '0' && *c <= '9') || *c == '.' || *c == '-';
        tag += plain ? *c : '_';
    }
    return tag;
}

/** Returns true when \a text is a non-empty run of decimal digits. */
bool allDigits(const std::string& text)
{
    if (text.empty() || text.size() > 18)
        return false;
    for (const char c : text)
        if (c < '0' || c > '9')
            return false;
    return true;
}

} // namespace

std::filesystem::path temporaryPathFor(const std::filesystem::path& path)
{
    std::filesystem::path tmp = path;
    tmp += ".part-" + hostTag() + "-" + std::to_string(::getpid());
    return tmp;
}

int removeStaleTemporaries(const std::filesystem::path& path)
{
    // "<name>.part-<host>-<pid>" of this host, or "<name>.part-<pid>" (the earlier form): the
    // process id says whether its writer still runs. A process of another host sharing the
    // folder (a cluster file system) cannot be checked, so its files are left alone.
    const std::string prefix = path.filename().string() + ".part-";
    const std::string ours = prefix + hostTag() + "-";
    std::filesystem::path folder = path.parent_path();
    if (folder.empty())
        folder = ".";
    std::error_code ec;
    std::filesystem::directory_iterator it(folder, ec);
    if (ec)
        return 0;
    int removed = 0;
    for (const auto& entry : it) {
        const std::string name = entry.path().filename().string();
        std::string pidText;
        if (name.rfind(ours, 0) == 0)
            pidText = name.substr(ours.size());
        else if (name.rfind(prefix, 0) == 0 && allDigits(name.substr(prefix.size())))
            pidText = name.substr(prefix.size());
        if (!allDigits(pidText))
            continue;
        const long long pid = std::stoll(pidText);
        if (pid <= 0 || pid == ::getpid() || pid > 0x7fffffffLL)
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
            continue; // running (or not ours to signal): maybe still writing
        std::error_code removeError;
        if (std::filesystem::remove(entry.path(), removeError))
            ++removed;
    }
    return removed;
}

Result<void> writeFileAtomically(const std::filesystem::path& path,
                                 const std::function<void(std::ostream&)>& write)
{
    const std::string file = path.string();
    removeStaleTemporaries(path);
    const std::filesystem::path tmp = temporaryPathFor(path);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return makeError(file, "", "cannot create a temporary file beside the target",
                             "a writable folder");
        try {
            write(out);
        } catch (...) {
            out.close();
            std::remove(tmp.c_str());
            throw;
        }
        out.flush();
        out.close();
        if (!out || !syncFile(tmp)) {
            std::remove(tmp.c_str());
            return makeError(file, "", "writing the file failed (disk full?)",
                             "a writable folder with free space");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return makeError(file, "", "cannot replace the file: " + ec.message(), "a writable folder");
    }
    return {};
}

Result<void> writeFileAtomically(const std::filesystem::path& path, const std::string& text)
{
    return writeFileAtomically(path, [&text](std::ostream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
}

} // namespace dct
