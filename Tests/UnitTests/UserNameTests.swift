import Foundation
import Platform
import XCTest
@testable import IntervalEngine

/// The name a follower joins a class under when it gives none: the environment's, else the
/// password database's (a shell tmux or cron started may have no `$USER`).
final class UserNameTests: XCTestCase {
    func testTheEnvironmentsNameComesFirst() {
        XCTAssertEqual(UserDirectories(environment: ["USER": "ana", "LOGNAME": "bo"]).userName, "ana")
        XCTAssertEqual(UserDirectories(environment: ["USER": "", "LOGNAME": "bo"]).userName, "bo")
    }

    func testWithoutOneThePasswordDatabaseNamesTheUser() throws {
        let entry = try XCTUnwrap(getpwuid(getuid()))
        let expected = String(cString: entry.pointee.pw_name)
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(UserDirectories(environment: [:]).userName, expected)
    }
}
