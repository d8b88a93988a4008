//! The matcher's items: held as given, or (for a catalog read from its
//! cache) decoded one by one on first use, and [`Items`], the view that lists
//! them either way.
//!
//! A catalog of thousands of records decoded whole costs hundreds of
//! thousands of allocations at every start, while a command such as
//! `errcat explain` looks at a handful of entries; so the cache keeps each
//! entry encoded until it is first asked for.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::Range;
#[cfg(feature = "cache")]
use std::sync::OnceLock;

/// Where a matcher's items are.
pub(crate) enum Slots<I> {
    /// All of them, as given.
    Ready(Vec<I>),
    /// Each decoded on first use.
    #[cfg(feature = "cache")]
    Lazy(Lazy<I>),
}

/// Items decoded on first use, each once.
#[cfg(feature = "cache")]
pub(crate) struct Lazy<I> {
    /// Boxed: an empty cell is then two words, whatever the item's size, so
    /// that thousands of cells that are never filled cost little memory to
    /// set up.
    cells: Box<[OnceLock<Box<I>>]>,
    /// Decodes item `index`. It returns an item or panics: the cache checks
    /// each item's bytes first and takes a damaged one from the records,
    /// panicking only if they changed since (see `catalog::cache`).
    decode: Box<dyn Fn(usize) -> I + Send + Sync>,
}

#[cfg(feature = "cache")]
impl<I> Lazy<I> {
    /// `len` items, item `index` being `decode(index)`.
    pub fn new(len: usize, decode: impl Fn(usize) -> I + Send + Sync + 'static) -> Lazy<I> {
        Lazy { cells: (0..len).map(|_| OnceLock::new()).collect(), decode: Box::new(decode) }
    }
}

impl<I> Slots<I> {
    pub fn len(&self) -> usize {
        match self {
            Slots::Ready(items) => items.len(),
            #[cfg(feature = "cache")]
            Slots::Lazy(lazy) => lazy.cells.len(),
        }
    }

    pub fn get(&self, index: usize) -> Option<&I> {
        match self {
            Slots::Ready(items) => items.get(index),
            #[cfg(feature = "cache")]
            Slots::Lazy(lazy) => Some(lazy.cells.get(index)?.get_or_init(|| Box::new((lazy.decode)(index)))),
        }
    }

    /// Item `index`.
    ///
    /// # Panics
    ///
    /// When `index` is out of range, as a slice would.
    pub fn at(&self, index: usize) -> &I {
        match self.get(index) {
            Some(item) => item,
            None => panic!("index out of bounds: the len is {} but the index is {index}", self.len()),
        }
    }

    /// How many items are in memory (all of them unless lazy).
    #[cfg(all(test, feature = "cache"))]
    pub fn decoded(&self) -> usize {
        match self {
            Slots::Ready(items) => items.len(),
            #[cfg(feature = "cache")]
            Slots::Lazy(lazy) => lazy.cells.iter().filter(|cell| cell.get().is_some()).count(),
        }
    }

    /// Every item, owned (the ones not yet decoded are decoded now).
    pub fn into_vec(self) -> Vec<I> {
        match self {
            Slots::Ready(items) => items,
            #[cfg(feature = "cache")]
            Slots::Lazy(lazy) => {
                let Lazy { cells, decode } = lazy;
                let cells = cells.into_vec().into_iter().enumerate();
                cells.map(|(index, cell)| cell.into_inner().map_or_else(|| decode(index), |item| *item)).collect()
            }
        }
    }
}

/// The items of a [`Matcher`](crate::Matcher) (and so the entries of a
/// [`Catalog`](crate::Catalog)), in index order: what a slice of them would
/// give (`len`, `get`, `iter`, `[index]`, `for`), without requiring them all
/// to be in memory, since a catalog read from its cache decodes an entry
/// when it is first asked for.
///
/// ```
/// let catalog = catalog_runtime::Catalog::load("../data/nats-io/nats-server").unwrap();
/// let entries = catalog.entries();
/// assert_eq!(entries.len(), 3);
/// assert_eq!(entries[0].record.id, entries.get(0).unwrap().record.id);
/// for entry in entries {
///     assert!(!entry.name.is_empty());
/// }
/// assert_eq!(entries.iter().rev().count(), 3);
/// ```
pub struct Items<I> {
    slots: Slots<I>,
}

/// The entries of a [`Catalog`](crate::Catalog), in record order (see [`Items`]).
pub type Entries = Items<crate::Entry>;

impl<I> Items<I> {
    pub(crate) fn new(slots: Slots<I>) -> Items<I> {
        Items { slots }
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Item `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<&I> {
        self.slots.get(index)
    }

    /// The items, in index order.
    pub fn iter(&self) -> ItemsIter<'_, I> {
        ItemsIter { items: self, range: 0..self.len() }
    }

    /// The items, cloned.
    pub fn to_vec(&self) -> Vec<I>
    where
        I: Clone,
    {
        self.iter().cloned().collect()
    }

    /// Item `index`.
    ///
    /// # Panics
    ///
    /// When `index` is out of range, as a slice would.
    pub(crate) fn at(&self, index: usize) -> &I {
        self.slots.at(index)
    }

    /// How many items are in memory (see [`Slots`]).
    #[cfg(all(test, feature = "cache"))]
    pub(crate) fn decoded(&self) -> usize {
        self.slots.decoded()
    }

    /// Every item, owned.
    pub(crate) fn into_vec(self) -> Vec<I> {
        self.slots.into_vec()
    }
}

impl<I> std::ops::Index<usize> for Items<I> {
    type Output = I;

    /// # Panics
    ///
    /// When `index` is not below [`len`](Items::len).
    fn index(&self, index: usize) -> &I {
        self.slots.at(index)
    }
}

impl<'a, I> IntoIterator for &'a Items<I> {
    type Item = &'a I;
    type IntoIter = ItemsIter<'a, I>;

    fn into_iter(self) -> ItemsIter<'a, I> {
        self.iter()
    }
}

impl<I: PartialEq> PartialEq for Items<I> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<I: PartialEq> PartialEq<[I]> for Items<I> {
    fn eq(&self, other: &[I]) -> bool {
        self.len() == other.len() && self.iter().eq(other)
    }
}

impl<I: PartialEq> PartialEq<Vec<I>> for Items<I> {
    fn eq(&self, other: &Vec<I>) -> bool {
        *self == other[..]
    }
}

/// Lists every item (decoding those not yet decoded).
impl<I: fmt::Debug> fmt::Debug for Items<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The iterator of [`Items`].
pub struct ItemsIter<'a, I> {
    items: &'a Items<I>,
    range: Range<usize>,
}

impl<'a, I> Iterator for ItemsIter<'a, I> {
    type Item = &'a I;

    fn next(&mut self) -> Option<&'a I> {
        self.range.next().map(|index| self.items.at(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }

    fn nth(&mut self, n: usize) -> Option<&'a I> {
        self.range.nth(n).map(|index| self.items.at(index))
    }
}

impl<I> DoubleEndedIterator for ItemsIter<'_, I> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.range.next_back().map(|index| self.items.at(index))
    }
}

impl<I> ExactSizeIterator for ItemsIter<'_, I> {}

impl<I> FusedIterator for ItemsIter<'_, I> {}

impl<I> Clone for ItemsIter<'_, I> {
    fn clone(&self) -> Self {
        ItemsIter { items: self.items, range: self.range.clone() }
    }
}

impl<I: fmt::Debug> fmt::Debug for ItemsIter<'_, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}
