/// `.storekit` files of several versions, written for these tests in Xcode's format (inline, so the test
/// target needs no resources).
enum StoreKitFixtures {
    /// Version 1.0 as Xcode 12 wrote it: no `identifier`, no `nonRenewingSubscriptions`, empty settings,
    /// one non-consumable and a subscription group.
    static let version1 = """
        {
          "products" : [
            {
              "displayPrice" : "19.99",
              "familyShareable" : true,
              "internalID" : "1A2B3C4D",
              "localizations" : [
                {
                  "description" : "Everything, for ever",
                  "displayName" : "Lifetime",
                  "locale" : "en_US"
                }
              ],
              "productID" : "com.example.lifetime",
              "referenceName" : "lifetime",
              "type" : "NonConsumable"
            }
          ],
          "settings" : {

          },
          "subscriptionGroups" : [
            {
              "id" : "0F0F0F0F",
              "localizations" : [

              ],
              "name" : "group",
              "subscriptions" : [
                {
                  "adHocOffers" : [

                  ],
                  "displayPrice" : "4.99",
                  "familyShareable" : true,
                  "groupNumber" : 1,
                  "internalID" : "5E5E5E5E",
                  "localizations" : [
                    {
                      "description" : "",
                      "displayName" : "",
                      "locale" : "en_US"
                    }
                  ],
                  "productID" : "com.example.monthly",
                  "recurringSubscriptionPeriod" : "P1M",
                  "referenceName" : "monthly",
                  "subscriptionGroupID" : "0F0F0F0F",
                  "type" : "RecurringSubscription"
                }
              ]
            }
          ],
          "version" : {
            "major" : 1,
            "minor" : 0
          }
        }
        """

    /// Version 2.0: a consumable with two localizations, a non-renewing subscription, a US storefront in
    /// German, Ask to Buy on.
    static let version2 = """
        {
          "identifier" : "ABCDEF01",
          "nonRenewingSubscriptions" : [
            {
              "displayPrice" : "2.99",
              "familyShareable" : false,
              "internalID" : "22222222",
              "localizations" : [
                {
                  "description" : "A season pass",
                  "displayName" : "Season",
                  "locale" : "en_US"
                }
              ],
              "productID" : "com.example.season",
              "referenceName" : "season",
              "type" : "NonRenewingSubscription"
            }
          ],
          "products" : [
            {
              "displayPrice" : "0.5",
              "familyShareable" : false,
              "internalID" : "11111111",
              "localizations" : [
                {
                  "description" : "A handful of coins",
                  "displayName" : "Coins",
                  "locale" : "en_US"
                },
                {
                  "description" : "Eine Handvoll Münzen",
                  "displayName" : "Münzen",
                  "locale" : "de_DE"
                }
              ],
              "productID" : "com.example.coins",
              "referenceName" : "coins",
              "type" : "Consumable"
            }
          ],
          "settings" : {
            "_askToBuyEnabled" : true,
            "_failTransactionsEnabled" : false,
            "_locale" : "de_DE",
            "_storefront" : "USA"
          },
          "subscriptionGroups" : [

          ],
          "version" : {
            "major" : 2,
            "minor" : 0
          }
        }
        """

    /// Version 5.0 with everything Xcode 16 writes: app policies, full settings with a StoreKit error chosen,
    /// subscription groups with offers and billing plans.
    static let version5 = """
        {
          "appPolicies" : {
            "eula" : "",
            "policies" : [
              {
                "locale" : "en_US",
                "policyText" : "",
                "policyURL" : ""
              }
            ]
          },
          "identifier" : "B495CDA2",
          "nonRenewingSubscriptions" : [

          ],
          "products" : [
            {
              "displayPrice" : "1.49",
              "familyShareable" : false,
              "internalID" : "9CF3BDC4",
              "localizations" : [
                {
                  "description" : "",
                  "displayName" : "Consumable IAP",
                  "locale" : "en_US"
                }
              ],
              "productID" : "com.example.consumable",
              "referenceName" : "Consumable IAP",
              "type" : "Consumable"
            },
            {
              "displayPrice" : "199.99",
              "familyShareable" : true,
              "internalID" : "319A9C2C",
              "localizations" : [

              ],
              "productID" : "com.example.lifetime",
              "referenceName" : "Lifetime, reference name",
              "type" : "NonConsumable"
            }
          ],
          "settings" : {
            "_askToBuyEnabled" : false,
            "_billingGracePeriodEnabled" : true,
            "_billingIssuesEnabled" : false,
            "_disableDialogs" : true,
            "_failTransactionsEnabled" : false,
            "_locale" : "en_US",
            "_renewalBillingIssuesEnabled" : false,
            "_storefront" : "USA",
            "_storeKitErrors" : [
              {
                "current" : {
                  "index" : 2,
                  "type" : "generic"
                },
                "enabled" : true,
                "name" : "Purchase"
              },
              {
                "current" : null,
                "enabled" : false,
                "name" : "Load Products"
              }
            ],
            "_timeRate" : 3
          },
          "subscriptionGroups" : [
            {
              "id" : "7096FF06",
              "localizations" : [

              ],
              "name" : "group 1",
              "subscriptions" : [
                {
                  "adHocOffers" : [
                    {
                      "billingPlanType" : "BILLED_UPFRONT",
                      "displayPrice" : "40.99",
                      "internalID" : "FF459F3D",
                      "numberOfPeriods" : 1,
                      "offerID" : "year.discount",
                      "paymentMode" : "payUpFront",
                      "referenceName" : "year discount",
                      "subscriptionPeriod" : "P1Y"
                    }
                  ],
                  "billingPlans" : [
                    {
                      "billingPlanType" : "BILLED_UPFRONT",
                      "commitmentDisplayPrice" : "4.99",
                      "displayPrice" : "4.99",
                      "internalID" : "12BB6242",
                      "isEnabled" : true
                    }
                  ],
                  "codeOffers" : [

                  ],
                  "displayPrice" : "4.99",
                  "familyShareable" : true,
                  "groupNumber" : 1,
                  "internalID" : "E5E51B92",
                  "introductoryOffer" : {
                    "internalID" : "D4FA46D0",
                    "paymentMode" : "free",
                    "subscriptionPeriod" : "P3M"
                  },
                  "localizations" : [
                    {
                      "description" : "Monthly",
                      "displayName" : "Monthly",
                      "locale" : "en_US"
                    }
                  ],
                  "productID" : "com.example.monthly",
                  "recurringSubscriptionPeriod" : "P1M",
                  "referenceName" : "monthly",
                  "subscriptionGroupID" : "7096FF06",
                  "type" : "RecurringSubscription",
                  "winbackOffers" : [

                  ]
                }
              ]
            },
            {
              "id" : "4BB746BD",
              "localizations" : [

              ],
              "name" : "group 2",
              "subscriptions" : [
                {
                  "adHocOffers" : [

                  ],
                  "codeOffers" : [

                  ],
                  "displayPrice" : "39.99",
                  "familyShareable" : true,
                  "groupNumber" : 1,
                  "internalID" : "04E81966",
                  "introductoryOffers" : [

                  ],
                  "localizations" : [

                  ],
                  "productID" : "com.example.annual",
                  "recurringSubscriptionPeriod" : "P1Y",
                  "referenceName" : "annual no trial",
                  "subscriptionGroupID" : "4BB746BD",
                  "type" : "RecurringSubscription",
                  "winbackOffers" : [

                  ]
                }
              ]
            }
          ],
          "version" : {
            "major" : 5,
            "minor" : 0
          }
        }
        """

    /// A small file with the given products, settings and version.
    static func minimal(products: String = "[]", settings: String = "{}", version: String = "3.0") -> String {
        let parts = version.split(separator: ".")
        return """
            {"products": \(products), "settings": \(settings),
             "version": {"major": \(parts[0]), "minor": \(parts.count > 1 ? parts[1] : "0")}}
            """
    }

    /// One product entry.
    static func product(
        id: String = "com.example.item", type: String = "Consumable", price: String = "1.00",
        localizations: String = #"[{"locale": "en_US", "displayName": "Item", "description": "An item"}]"#
    ) -> String {
        """
        {"productID": "\(id)", "type": "\(type)", "displayPrice": "\(price)", "referenceName": "ref \(id)",
         "localizations": \(localizations)}
        """
    }
}
