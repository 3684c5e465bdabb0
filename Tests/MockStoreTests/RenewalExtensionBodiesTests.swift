import Foundation
import StoreWire
import Testing

/// The renewal-date extension request bodies, checked as Apple checks them (codes from Apple's `APIError`).
@Suite struct RenewalExtensionBodiesTests {
    static func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static func code(_ text: String) -> Int? {
        do {
            _ = try ExtendRenewalDateRequestBody.validated(try json(text))
            return nil
        } catch let error as RenewalExtensionRequestError {
            return error.code.rawValue
        } catch {
            return -1
        }
    }

    static func massCode(_ text: String) -> Int? {
        do {
            _ = try MassExtendRenewalDateRequestBody.validated(try json(text)) { ["USA", "GBR"].contains($0) }
            return nil
        } catch let error as RenewalExtensionRequestError {
            return error.code.rawValue
        } catch {
            return -1
        }
    }

    @Test func aWellFormedRequestIsTakenWithItsFields() throws {
        let request = try ExtendRenewalDateRequestBody.validated(
            try Self.json(#"{"extendByDays": 90, "extendReasonCode": 3, "requestIdentifier": "a"}"#))
        #expect(request == .init(extendByDays: 90, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "a"))
    }

    @Test(arguments: [
        (#"{"extendReasonCode": 1, "requestIdentifier": "r"}"#, 4_000_009),
        (#"{"extendByDays": 0, "extendReasonCode": 1, "requestIdentifier": "r"}"#, 4_000_009),
        (#"{"extendByDays": 91, "extendReasonCode": 1, "requestIdentifier": "r"}"#, 4_000_009),
        (#"{"extendByDays": 1.5, "extendReasonCode": 1, "requestIdentifier": "r"}"#, 4_000_009),
        (#"{"extendByDays": "5", "extendReasonCode": 1, "requestIdentifier": "r"}"#, 4_000_009),
        (#"{"extendByDays": 5, "requestIdentifier": "r"}"#, 4_000_010),
        (#"{"extendByDays": 5, "extendReasonCode": 4, "requestIdentifier": "r"}"#, 4_000_010),
        (#"{"extendByDays": 5, "extendReasonCode": -1, "requestIdentifier": "r"}"#, 4_000_010),
        (#"{"extendByDays": 5, "extendReasonCode": 1}"#, 4_000_011),
        (#"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": ""}"#, 4_000_011),
        (#"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": 7}"#, 4_000_011),
        (#"[1, 2]"#, 4_000_000),
    ])
    func aBadFieldIsRefusedWithApplesCode(body: String, code: Int) {
        #expect(Self.code(body) == code)
    }

    @Test func requestIdentifiersUpTo128CharactersAreTaken() {
        let longest = String(repeating: "x", count: 128)
        #expect(
            Self.code(#"{"extendByDays": 1, "extendReasonCode": 0, "requestIdentifier": "\#(longest)"}"#) == nil)
        #expect(
            Self.code(#"{"extendByDays": 1, "extendReasonCode": 0, "requestIdentifier": "\#(longest)y"}"#)
                == 4_000_011)
    }

    @Test(arguments: [
        (#"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": "r"}"#, 4_000_023),
        (#"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": "r", "productId": ""}"#, 4_000_023),
        (
            #"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": "r", "productId": "p", "storefrontCountryCodes": []}"#,
            4_000_027
        ),
        (
            #"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": "r", "productId": "p", "storefrontCountryCodes": ["XXX"]}"#,
            4_000_028
        ),
        (
            #"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": "r", "productId": "p", "storefrontCountryCodes": "USA"}"#,
            4_000_028
        ),
        (#"{"extendByDays": 100, "extendReasonCode": 1, "requestIdentifier": "r", "productId": "p"}"#, 4_000_009),
    ])
    func aBadMassRequestIsRefusedWithApplesCode(body: String, code: Int) {
        #expect(Self.massCode(body) == code)
    }

    @Test func aMassRequestKeepsItsStorefronts() throws {
        let request = try MassExtendRenewalDateRequestBody.validated(
            try Self.json(
                #"{"extendByDays": 7, "extendReasonCode": 0, "requestIdentifier": "r", "productId": "p", "storefrontCountryCodes": ["GBR"]}"#
            )
        ) { $0 == "GBR" }
        #expect(request.storefrontCountryCodes == ["GBR"] && request.productId == "p" && request.extendByDays == 7)
    }
}
