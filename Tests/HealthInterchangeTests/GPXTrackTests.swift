import Foundation
import HealthInterchange
import HealthModel
import Testing

/// Workout routes' GPX files as Apple writes them, and as other tools rewrite them.
@Suite struct GPXTrackTests {
    @Test func readsApplesPointsWithTheirExtensions() {
        let text = """
            <gpx version="1.1" creator="Apple Health Export"><trk><trkseg>
            <trkpt lon="-122.030" lat="37.331"><ele>12.5</ele><time>2020-01-01T08:30:02Z</time>
             <extensions><speed>3.1</speed><course>359.9</course><hAcc>6.1</hAcc><vAcc>4.0</vAcc></extensions></trkpt>
            <trkpt lat='37.330' lon='-122.031'><time>2020-01-01T08:30:01Z</time><extensions><hAcc>5</hAcc></extensions></trkpt>
            </trkseg></trk></gpx>
            """
        let track = GPXTrack(Array(text.utf8))
        #expect(track.skipped == 0)
        // Sorted by time, whatever the file's order; attributes in either quote and order.
        #expect(track.locations.map(\.latitude) == [37.330, 37.331])
        let last = track.locations[1]
        #expect(last.altitude == 12.5 && last.speed == 3.1 && last.course == 359.9)
        #expect(last.horizontalAccuracy == 6.1 && last.verticalAccuracy == 4.0)
        // What the file does not say is HealthKit's "not known" (-1), altitude 0.
        let first = track.locations[0]
        #expect(first.speed == -1 && first.course == -1 && first.verticalAccuracy == -1 && first.altitude == 0)
    }

    @Test func leavesOutPointsItCannotTrustAndCountsThem() {
        let text = """
            <trkpt lat="91" lon="0"><time>2020-01-01T08:30:00Z</time><extensions><hAcc>5</hAcc></extensions></trkpt>
            <trkpt lat="10" lon="abc"><time>2020-01-01T08:30:00Z</time><extensions><hAcc>5</hAcc></extensions></trkpt>
            <trkpt lat="10" lon="10"><extensions><hAcc>5</hAcc></extensions></trkpt>
            <trkpt lat="10" lon="10"><time>2020-01-01T08:30:00Z</time></trkpt>
            <trkpt lat="10" lon="10"><time>2020-01-01T08:30:01Z</time><extensions><vAcc>3</vAcc></extensions></trkpt>
            <trkpt lat="10" lon="11"/>
            <trkpt lat="10" lon="12"><time>2020-01-01T08:30
            """
        let track = GPXTrack(Array(text.utf8))
        // Out of range, unreadable, no time, no accuracy at all, self-closed without a time, cut.
        #expect(track.skipped == 6)
        // Without a horizontal accuracy the vertical one stands in (never a claimed 0).
        #expect(track.locations.map(\.horizontalAccuracy) == [3])
    }

    @Test func readsWhatOtherToolsWriteAndRefusesWhatIsNotANumber() {
        let text = """
            <trkptx lat="1" lon="1"><time>2020-01-01T08:29:00Z</time></trkptx>
            <trkpt\tlon = "-122.5"\n lat=\t'37.25' ><ele> 3 </ele><time>
             2020-01-01T08:30:00Z </time><extensions><hAcc>5</hAcc><course>360.5</course></extensions></trkpt>
            <trkpt lat="nan" lon="1"><time>2020-01-01T08:31:00Z</time><extensions><hAcc>5</hAcc></extensions></trkpt>
            <trkpt lat="2" lon="0x10"><time>2020-01-01T08:32:00Z</time><extensions><hAcc>5</hAcc></extensions></trkpt>
            <trkpt lat="3" lon="3" ><time>2020-01-01T08:33:00Z</time><hAcc>inf</hAcc><vAcc>2</vAcc><ele>1</ele><ele>9</ele></trkpt>
            """
        let track = GPXTrack(Array(text.utf8))
        // `<trkptx>` is not a point; `nan` and `0x10` are not GPX numbers.
        #expect(track.skipped == 2)
        #expect(track.locations.map(\.latitude) == [37.25, 3])
        let first = track.locations[0]
        #expect(
            first.longitude == -122.5 && first.altitude == 3 && first.course == 0.5 && first.horizontalAccuracy == 5
        )
        // An unreadable horizontal accuracy: the vertical one stands in; the first `<ele>` counts.
        let second = track.locations[1]
        #expect(second.horizontalAccuracy == 2 && second.altitude == 1)
    }
}
