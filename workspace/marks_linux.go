package workspace

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirMarks watches directories with fanotify marks: the kernel's second
// watch budget (fs.fanotify.max_user_marks, its own limit beside
// inotify's), open to a user without privilege since Linux 5.13 for marks
// on inodes that report directory handles and names. An event names its
// directory by handle (fsid and file handle), which a user without
// privilege cannot open: the handle of each directory marked is kept to
// name it back.
type dirMarks struct {
	f       *os.File
	fd      int
	deliver func(paths []string, overflowed bool)

	mu sync.Mutex
	// dirs is each marked directory's absolute path by its handle key
	// (handleKey); fsids each mount's file system id by mount id.
	dirs  map[string]string
	fsids map[int][8]byte
	done  chan struct{}
}

// markEvents are what a mark reports: an entry of the directory made,
// deleted or renamed, a file in it written or its attributes changed,
// and the directory itself deleted or moved — inotify's events as the
// watcher asks fsnotify for them.
const markEvents = unix.FAN_CREATE | unix.FAN_DELETE | unix.FAN_MOVED_FROM | unix.FAN_MOVED_TO |
	unix.FAN_MODIFY | unix.FAN_ATTRIB | unix.FAN_DELETE_SELF | unix.FAN_MOVE_SELF |
	unix.FAN_ONDIR | unix.FAN_EVENT_ON_CHILD

// newDirMarks opens a fanotify group; deliver receives each batch of
// changed absolute paths, or overflowed when the kernel's queue dropped
// events.
func newDirMarks(deliver func(paths []string, overflowed bool)) (*dirMarks, error) {
	fd, err := unix.FanotifyInit(unix.FAN_CLASS_NOTIF|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK|unix.FAN_REPORT_DFID_NAME, unix.O_RDONLY|unix.O_CLOEXEC)
	if err != nil {
		return nil, err
	}
	m := &dirMarks{f: os.NewFile(uintptr(fd), "fanotify"), fd: fd, deliver: deliver,
		dirs: map[string]string{}, fsids: map[int][8]byte{}, done: make(chan struct{})}
	go m.loop()
	return m, nil
}

// add marks directory p (absolute).
func (m *dirMarks) add(p string) error {
	h, mount, err := unix.NameToHandleAt(unix.AT_FDCWD, p, 0)
	if err != nil {
		return err
	}
	m.mu.Lock()
	fsid, ok := m.fsids[mount]
	m.mu.Unlock()
	if !ok {
		var st unix.Statfs_t
		if err := unix.Statfs(p, &st); err != nil {
			return err
		}
		binary.LittleEndian.PutUint32(fsid[:4], uint32(st.Fsid.Val[0]))
		binary.LittleEndian.PutUint32(fsid[4:], uint32(st.Fsid.Val[1]))
	}
	if err := unix.FanotifyMark(m.fd, unix.FAN_MARK_ADD|unix.FAN_MARK_ONLYDIR|unix.FAN_MARK_DONT_FOLLOW, markEvents, unix.AT_FDCWD, p); err != nil {
		return err
	}
	m.mu.Lock()
	m.fsids[mount] = fsid
	m.dirs[handleKey(fsid[:], uint32(h.Type()), h.Bytes())] = p
	m.mu.Unlock()
	return nil
}

// remove lets go of p's mark (a directory deleted has lost it already:
// its DELETE_SELF forgot its handle).
func (m *dirMarks) remove(p string) {
	_ = unix.FanotifyMark(m.fd, unix.FAN_MARK_REMOVE|unix.FAN_MARK_ONLYDIR|unix.FAN_MARK_DONT_FOLLOW, markEvents, unix.AT_FDCWD, p)
	h, mount, err := unix.NameToHandleAt(unix.AT_FDCWD, p, 0)
	if err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if fsid, ok := m.fsids[mount]; ok {
		delete(m.dirs, handleKey(fsid[:], uint32(h.Type()), h.Bytes()))
	}
}

// handleKey is a directory's name in events: its file system's id, its
// handle's type and bytes.
func handleKey(fsid []byte, typ uint32, handle []byte) string {
	var t [4]byte
	binary.LittleEndian.PutUint32(t[:], typ)
	return string(fsid) + string(t[:]) + string(handle)
}

func (m *dirMarks) loop() {
	defer close(m.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := m.f.Read(buf)
		if err != nil {
			if errors.Is(err, os.ErrClosed) {
				return
			}
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			m.deliver(nil, true) // events may be lost: a rescan recovers
			return
		}
		paths, overflowed := m.parse(buf[:n])
		if len(paths) > 0 || overflowed {
			m.deliver(paths, overflowed)
		}
	}
}

// fidInfoLen is the fixed part of an event's file-handle record:
// fanotify_event_info_header (type, pad, len), the fsid, and the
// file_handle's byte count and type.
const fidInfoLen = 4 + 8 + 4 + 4

// parse reads the events in b into the paths they name (a directory's
// entry, or the directory itself).
func (m *dirMarks) parse(b []byte) (paths []string, overflowed bool) {
	metaLen := int(unsafe.Sizeof(unix.FanotifyEventMetadata{}))
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(b) >= metaLen {
		md := (*unix.FanotifyEventMetadata)(unsafe.Pointer(&b[0]))
		if md.Event_len < uint32(md.Metadata_len) || int(md.Event_len) > len(b) || md.Vers != unix.FANOTIFY_METADATA_VERSION {
			return paths, true
		}
		if md.Fd >= 0 {
			_ = unix.Close(int(md.Fd)) // not asked for in this mode; closed should one come
		}
		if md.Mask&unix.FAN_Q_OVERFLOW != 0 {
			overflowed = true
		}
		info := b[md.Metadata_len:md.Event_len]
		for len(info) >= fidInfoLen {
			typ, size := info[0], int(binary.LittleEndian.Uint16(info[2:4]))
			if size < fidInfoLen || size > len(info) {
				break
			}
			rec := info[:size]
			info = info[size:]
			if typ != unix.FAN_EVENT_INFO_TYPE_FID && typ != unix.FAN_EVENT_INFO_TYPE_DFID_NAME && typ != unix.FAN_EVENT_INFO_TYPE_DFID {
				continue
			}
			hlen := int(binary.LittleEndian.Uint32(rec[12:16]))
			if fidInfoLen+hlen > len(rec) {
				continue
			}
			key := handleKey(rec[4:12], binary.LittleEndian.Uint32(rec[16:20]), rec[fidInfoLen:fidInfoLen+hlen])
			dir, ok := m.dirs[key]
			if !ok {
				continue // a directory no longer marked
			}
			name := ""
			if typ == unix.FAN_EVENT_INFO_TYPE_DFID_NAME {
				name, _, _ = strings.Cut(string(rec[fidInfoLen+hlen:]), "\x00")
			}
			if name == "" || name == "." {
				paths = append(paths, dir)
			} else {
				paths = append(paths, filepath.Join(dir, name))
			}
			if md.Mask&unix.FAN_DELETE_SELF != 0 && (name == "" || name == ".") {
				delete(m.dirs, key) // the kernel dropped its mark
			}
		}
		b = b[md.Event_len:]
	}
	return paths, overflowed
}

// close drops every mark (they are the group's) and stops the loop.
func (m *dirMarks) close() {
	_ = m.f.Close()
	<-m.done
}

// isMarkLimit reports the error fanotify gives when max_user_marks is
// used up.
func isMarkLimit(err error) bool { return errors.Is(err, syscall.ENOSPC) }

// systemMarkLimit is the most fanotify marks one user may hold
// (max_user_marks), or 0 when unknown — an older kernel, without marks
// for a user without privilege.
func systemMarkLimit() int { return procLimit("/proc/sys/fs/fanotify/max_user_marks") }
