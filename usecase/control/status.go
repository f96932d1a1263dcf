package control

import "mediateka/domain"

// RoomStatus is a room as GET /api/control/status shows it: who is there,
// the last reports of its players, and the playback as the room's state
// machine sees it after the last commands and reports.
type RoomStatus struct {
	Room     string
	Players  int
	Remotes  int
	Status   *StatusUpdate // the last status_update; nil before one
	Playlist []PlaylistItem
	Metadata *Metadata // the last metadata_update; nil before one
	Playback domain.Room
}

// Status reports a room under the same rules as joining it. A room nobody
// is in is empty and idle: rooms disappear with their last connection.
func (s *Service) Status(room string, caller domain.Caller) (RoomStatus, error) {
	name, err := ParseRoom(room)
	if err != nil {
		return RoomStatus{}, err
	}
	if err := s.access(name, caller); err != nil {
		return RoomStatus{}, err
	}
	s.mu.Lock()
	r := s.rooms[name]
	s.mu.Unlock()
	if r == nil {
		return RoomStatus{Room: name, Playback: domain.NewRoom()}, nil
	}
	return r.snapshot(), nil
}
