/// One named operation of the products upstream, sent as the whole `query`
/// document of a request with its values in `variables`, never spliced into the text.
///
/// `Upstream/operations.graphql` holds the same texts for readers and tools;
/// `GraphQLOperationTests` checks that they agree.
struct GraphQLOperation: Sendable, Hashable {
  /// The `operationName` of the request, and the operation's name in `document`.
  let name: String
  /// The top-level field whose value the operation reads from `data`.
  let field: String
  /// The GraphQL document: this operation alone.
  let document: String

  static let productList = GraphQLOperation(
    name: "ProductList", field: "productList",
    document: """
      query ProductList($cursor: String, $limit: Int, $query: String) {
        productList(cursor: $cursor, limit: $limit, query: $query) {
          itemList {
            id
            nameKo
            nameEn
            price
            supplier {
              id
              name
            }
            createdAt
            updatedAt
            imageUrl
          }
          totalCount
          nextCursor
        }
      }
      """)

  static let product = GraphQLOperation(
    name: "Product", field: "product",
    document: """
      query Product($id: ID!) {
        product(id: $id) {
          id
          nameKo
          nameEn
          price
          supplier {
            id
            name
          }
          createdAt
          updatedAt
          imageUrl
        }
      }
      """)

  static let supplierList = GraphQLOperation(
    name: "SupplierList", field: "supplierList",
    document: """
      query SupplierList {
        supplierList {
          itemList {
            id
            name
          }
        }
      }
      """)

  static let createProduct = GraphQLOperation(
    name: "CreateProduct", field: "createProduct",
    document: """
      mutation CreateProduct($input: CreateProductInput!) {
        createProduct(input: $input) {
          id
          nameKo
          nameEn
          price
          supplier {
            id
            name
          }
          createdAt
          updatedAt
          imageUrl
        }
      }
      """)

  static let updateProduct = GraphQLOperation(
    name: "UpdateProduct", field: "updateProduct",
    document: """
      mutation UpdateProduct($input: UpdateProductInput!) {
        updateProduct(input: $input) {
          id
          nameKo
          nameEn
          price
          supplier {
            id
            name
          }
          createdAt
          updatedAt
          imageUrl
        }
      }
      """)

  static let deleteProduct = GraphQLOperation(
    name: "DeleteProduct", field: "deleteProduct",
    document: """
      mutation DeleteProduct($id: ID!) {
        deleteProduct(id: $id)
      }
      """)

  /// The same operation without the optional `imageUrl` selection, for an
  /// upstream whose schema lacks it (`GraphQLImageField`).
  var withoutImageField: GraphQLOperation {
    let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
    return GraphQLOperation(
      name: name, field: field,
      document: lines.filter { $0.drop(while: { $0 == " " }) != "imageUrl" }.joined(separator: "\n")
    )
  }

  /// Every operation, in the order of `operations.graphql`.
  static let all: [GraphQLOperation] = [
    productList, product, supplierList, createProduct, updateProduct, deleteProduct,
  ]
}
