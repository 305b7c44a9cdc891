/**
 * /api/tracking/click.js, for partners' landing pages. Keeps the bclickid a tracked link added
 * to the URL, with its timestamp, for 30 days (SPEC §9: two localStorage keys). No cookies.
 * Plain ES5 so it runs on any page; kept tiny because it loads on every landing page.
 *
 * Stripe without code: while a click id is kept, every Stripe Payment Link on the page
 * (`https://buy.stripe.com/…`) carries it as `client_reference_id`, and every
 * `<stripe-pricing-table>` and `<stripe-buy-button>` as `client-reference-id`, also those added
 * later. Stripe puts it on the Checkout Session, whose `checkout.session.completed` then records
 * the purchase (integrations). A reference the site set itself is left alone; one this script set
 * (marked `data-buddy-ref`) follows a newer click.
 */
export const CLICK_SCRIPT = `(function(w,d){"use strict";
var K="buddy_bclickid",T="buddy_bclickid_ts",TTL=2592e6,M="data-buddy-ref",b=w.buddy=w.buddy||{};
function store(){try{return w.localStorage}catch(e){return null}}
b.clickId=function(){var s=store();if(!s)return null;var id=s.getItem(K),t=+s.getItem(T);
if(!id||!t||Date.now()-t>TTL){s.removeItem(K);s.removeItem(T);return null}return id};
var m=/[?&]bclickid=([A-Za-z0-9_-]{10,64})(?:&|#|$)/.exec(w.location.search),s=store();
if(m&&s){try{s.setItem(K,m[1]);s.setItem(T,String(Date.now()))}catch(e){}}
function ours(e,v){return !v||e.getAttribute(M)===v}
function tag(){var id=b.clickId(),i,e,u,v;if(!id)return;
var a=d.querySelectorAll('a[href^="https://buy.stripe.com/"]');
for(i=0;i<a.length;i++){e=a[i];try{u=new URL(e.href);v=u.searchParams.get("client_reference_id");
if(v!==id&&ours(e,v)){u.searchParams.set("client_reference_id",id);e.href=u.toString();e.setAttribute(M,id)}}catch(x){}}
a=d.querySelectorAll("stripe-pricing-table,stripe-buy-button");
for(i=0;i<a.length;i++){e=a[i];v=e.getAttribute("client-reference-id");
if(v!==id&&ours(e,v)){e.setAttribute("client-reference-id",id);e.setAttribute(M,id)}}}
var q=0;function later(){if(!q){q=1;setTimeout(function(){q=0;tag()},0)}}
tag();if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",tag);
if(w.MutationObserver)new MutationObserver(later).observe(d.documentElement,{childList:true,subtree:true});
})(window,document);
`;
