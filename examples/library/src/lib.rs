//! googleapis' library example (`google.example.library.v1.LibraryService`),
//! kept in memory, served over gRPC by tonic and over HTTP/JSON by its
//! `google.api.http` rules: by the generated `library_service_routes`, in
//! process, or by the gateway in front of the gRPC server.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use tonic::{Request, Response, Status};

/// The library's messages, tonic's client and server, their ProtoJSON and
/// `library_service_routes`.
pub mod library {
    // The doc comments are library.proto's, whose lists wrap as clippy's
    // markdown rules do not expect.
    #![allow(clippy::doc_lazy_continuation)]
    include!(concat!(env!("OUT_DIR"), "/google.example.library.v1.rs"));
    include!(concat!(
        env!("OUT_DIR"),
        "/google.example.library.v1.protojsonx.rs"
    ));
}

use library::library_service_server::LibraryService;
use library::*;

/// The descriptor set of library.proto with its imports: what the gateway reads.
pub const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/library.binpb"));

/// The shelves and books, each by name; shelves numbered from 1 in order of creation.
#[derive(Debug, Default)]
struct Shelves {
    shelves: BTreeMap<String, Shelf>,
    books: BTreeMap<String, Book>,
    created: u64,
}

/// The library in memory. Clones share it, so that gRPC and HTTP/JSON see one library.
#[derive(Debug, Default, Clone)]
pub struct Library {
    state: Arc<Mutex<Shelves>>,
}

impl Library {
    fn with<T>(
        &self,
        f: impl FnOnce(&mut Shelves) -> Result<T, Status>,
    ) -> Result<Response<T>, Status> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| Status::internal("a request panicked"))?;
        f(&mut state).map(Response::new)
    }
}

impl Shelves {
    fn shelf(&self, name: &str) -> Result<&Shelf, Status> {
        self.shelves
            .get(name)
            .ok_or_else(|| Status::not_found(format!("{name} does not exist")))
    }

    fn book(&self, name: &str) -> Result<&Book, Status> {
        self.books
            .get(name)
            .ok_or_else(|| Status::not_found(format!("{name} does not exist")))
    }

    fn next_id(&mut self) -> u64 {
        self.created += 1;
        self.created
    }

    /// The books of `shelf`, ordered by name.
    fn books_of<'s>(&'s self, shelf: &str) -> impl Iterator<Item = &'s Book> {
        let prefix = format!("{shelf}/books/");
        self.books
            .values()
            .filter(move |b| b.name.starts_with(&prefix))
    }
}

/// One page of `items` after `token` (an item's name), and the next token.
fn page<T: Clone>(
    items: impl Iterator<Item = T>,
    name: impl Fn(&T) -> &str,
    size: i32,
    token: &str,
) -> (Vec<T>, String) {
    let size = if size <= 0 { 10 } else { size as usize };
    let mut rest = items.filter(|item| token.is_empty() || name(item) > token);
    let page: Vec<T> = rest.by_ref().take(size).collect();
    let next = match (rest.next(), page.last()) {
        (Some(_), Some(last)) => name(last).to_owned(),
        _ => String::new(),
    };
    (page, next)
}

#[tonic::async_trait]
impl LibraryService for Library {
    async fn create_shelf(
        &self,
        request: Request<CreateShelfRequest>,
    ) -> Result<Response<Shelf>, Status> {
        let mut shelf = request.into_inner().shelf.unwrap_or_default();
        self.with(|state| {
            shelf.name = format!("shelves/{}", state.next_id());
            state.shelves.insert(shelf.name.clone(), shelf.clone());
            Ok(shelf)
        })
    }

    async fn get_shelf(
        &self,
        request: Request<GetShelfRequest>,
    ) -> Result<Response<Shelf>, Status> {
        let name = request.into_inner().name;
        self.with(|state| state.shelf(&name).cloned())
    }

    async fn list_shelves(
        &self,
        request: Request<ListShelvesRequest>,
    ) -> Result<Response<ListShelvesResponse>, Status> {
        let request = request.into_inner();
        self.with(|state| {
            let shelves = state.shelves.values().cloned();
            let (shelves, next_page_token) =
                page(shelves, |s| &s.name, request.page_size, &request.page_token);
            Ok(ListShelvesResponse {
                shelves,
                next_page_token,
            })
        })
    }

    async fn delete_shelf(
        &self,
        request: Request<DeleteShelfRequest>,
    ) -> Result<Response<()>, Status> {
        let name = request.into_inner().name;
        self.with(|state| {
            state.shelf(&name)?;
            state.shelves.remove(&name);
            let prefix = format!("{name}/books/");
            state.books.retain(|book, _| !book.starts_with(&prefix));
            Ok(())
        })
    }

    async fn merge_shelves(
        &self,
        request: Request<MergeShelvesRequest>,
    ) -> Result<Response<Shelf>, Status> {
        let request = request.into_inner();
        self.with(|state| {
            let shelf = state.shelf(&request.name)?.clone();
            state.shelf(&request.other_shelf)?;
            let moved: Vec<Book> = state.books_of(&request.other_shelf).cloned().collect();
            for mut book in moved {
                state.books.remove(&book.name);
                book.name = format!("{}/books/{}", shelf.name, state.next_id());
                state.books.insert(book.name.clone(), book);
            }
            state.shelves.remove(&request.other_shelf);
            Ok(shelf)
        })
    }

    async fn create_book(
        &self,
        request: Request<CreateBookRequest>,
    ) -> Result<Response<Book>, Status> {
        let request = request.into_inner();
        let mut book = request.book.unwrap_or_default();
        self.with(|state| {
            state.shelf(&request.parent)?;
            book.name = format!("{}/books/{}", request.parent, state.next_id());
            state.books.insert(book.name.clone(), book.clone());
            Ok(book)
        })
    }

    async fn get_book(&self, request: Request<GetBookRequest>) -> Result<Response<Book>, Status> {
        let name = request.into_inner().name;
        self.with(|state| state.book(&name).cloned())
    }

    async fn list_books(
        &self,
        request: Request<ListBooksRequest>,
    ) -> Result<Response<ListBooksResponse>, Status> {
        let request = request.into_inner();
        self.with(|state| {
            state.shelf(&request.parent)?;
            let books = state.books_of(&request.parent).cloned();
            let (books, next_page_token) =
                page(books, |b| &b.name, request.page_size, &request.page_token);
            Ok(ListBooksResponse {
                books,
                next_page_token,
            })
        })
    }

    async fn delete_book(
        &self,
        request: Request<DeleteBookRequest>,
    ) -> Result<Response<()>, Status> {
        let name = request.into_inner().name;
        self.with(|state| {
            state.book(&name)?;
            state.books.remove(&name);
            Ok(())
        })
    }

    async fn update_book(
        &self,
        request: Request<UpdateBookRequest>,
    ) -> Result<Response<Book>, Status> {
        let request = request.into_inner();
        let update = request.book.unwrap_or_default();
        let paths = request.update_mask.map(|m| m.paths).unwrap_or_default();
        self.with(|state| {
            let mut book = state.book(&update.name)?.clone();
            for path in &paths {
                match path.as_str() {
                    "author" => book.author = update.author.clone(),
                    "title" => book.title = update.title.clone(),
                    "read" => book.read = update.read,
                    other => {
                        return Err(Status::invalid_argument(format!("cannot update `{other}`")));
                    }
                }
            }
            state.books.insert(book.name.clone(), book.clone());
            Ok(book)
        })
    }

    async fn move_book(&self, request: Request<MoveBookRequest>) -> Result<Response<Book>, Status> {
        let request = request.into_inner();
        self.with(|state| {
            let mut book = state.book(&request.name)?.clone();
            state.shelf(&request.other_shelf_name)?;
            state.books.remove(&book.name);
            book.name = format!("{}/books/{}", request.other_shelf_name, state.next_id());
            state.books.insert(book.name.clone(), book.clone());
            Ok(book)
        })
    }
}
